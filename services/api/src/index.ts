export * from './app.js';
export * from './migrations.js';
export * from './modules.js';
export * from './server.js';
