export * from './batcher.js';
export * from './pipeline.js';
export * from './state-cache.js';
export * from './types.js';
export * from './handle-command.js';
