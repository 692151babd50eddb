export { projectionMigrations } from './migrations/index.js';
export * from './checkpoints.js';
export * from './events.js';
export * from './projector.js';
export * from './rebuild.js';
export * from './registry.js';
export * from './runner.js';
