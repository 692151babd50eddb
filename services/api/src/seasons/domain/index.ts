export * from './amounts.js';
export * from './events.js';
export * from './season-stream.js';
export * from './season.js';
