/** The seasons' shared model: types, calls and query options, formatting. */
export * from './types.js';
export * from './api.js';
export * from './format.js';
