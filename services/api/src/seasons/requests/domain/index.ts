export * from './events.js';
export * from './request-stream.js';
export * from './requests.js';
