import { bundleOf } from './bundles.js';

export const en = bundleOf(
  import.meta.glob('./locales/en/*.json', { eager: true, import: 'default' }),
);
