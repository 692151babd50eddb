export * from './app.js';
export type { Database } from './database.js';
export * from './migrations.js';
export * from './modules.js';
export * from './server.js';
export { startProjectionDispatch, type ProjectionDispatch } from './realtime/projections.js';
export { openApiDocument, type OpenApiDocument } from './openapi-document.js';
