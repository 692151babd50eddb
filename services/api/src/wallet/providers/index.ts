export * from './create-provider.js';
export * from './fedapay.js';
export * from './http.js';
export * from './kkiapay.js';
export * from './port.js';
export * from './sandbox.js';
