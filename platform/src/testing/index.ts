export * from './database.js';
export * from './redis.js';
export * from './calendar.js';
