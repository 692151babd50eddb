export * from './lines.js';
export * from './events.js';
export * from './matching.js';
export * from './close.js';
export * from './statement.js';
export * from './exception.js';
export * from './day.js';
