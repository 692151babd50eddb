export * from './contract-stream.js';
export * from './debt-stream.js';
export * from './debts.js';
export * from './decision.js';
export * from './delivery-contract.js';
export * from './events.js';
export * from './money.js';
export * from './settlement.js';
