export * from './assignment.js';
export * from './events.js';
