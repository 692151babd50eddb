export * from './app-deps.js';
export * from './demo.js';
export * from './module.js';
export * from './modules.js';
export * from './pushes.js';
