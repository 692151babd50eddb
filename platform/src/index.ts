export * from './config.js';
export * from './db.js';
export * from './errors.js';
export * from './logger.js';
export * from './migrations.js';
export * from './services/embedded-postgres.js';
export * from './services/redis-server.js';
export * from './migrations/index.js';
