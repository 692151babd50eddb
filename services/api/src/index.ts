export * from './app.js';
export * from './migrations.js';
export * from './server.js';
