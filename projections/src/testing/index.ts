export * from './counting-projector.js';
export * from './events.js';
