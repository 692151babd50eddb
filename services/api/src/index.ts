export * from './app.js';
export * from './migrations.js';
export * from './server.js';
export { createWalletWriteSide, startWalletJobWorker } from './wallet/index.js';
export { defineWalletEvents } from './wallet/catalogue.js';
export { startExportWorker } from './wallet/export/export-queue.js';
