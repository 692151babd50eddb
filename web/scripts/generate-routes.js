// Writes src/routeTree.gen.ts (git-ignored) so `tsc` works without a Vite build first.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Generator, getConfig } from '@tanstack/router-generator';
import { routerConfig } from './router-config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = getConfig({ target: 'react', ...routerConfig }, root);
await new Generator({ config, root }).run();
