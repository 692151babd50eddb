import { bundleOf } from './bundles.js';

export const fr = bundleOf(
  import.meta.glob('./locales/fr/*.json', { eager: true, import: 'default' }),
);
