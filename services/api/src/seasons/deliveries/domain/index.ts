export * from './delivery.js';
