import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const webDist = path.join(webRoot, 'dist');

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (max, name) => Math.max(max, newestMtime(path.join(entry, name))),
    stat.mtimeMs,
  );
}

/** Builds the web app when `web/dist` is missing or older than its sources. */
export function ensureWebBuilt(): void {
  const index = path.join(webDist, 'index.html');
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((p) =>
    path.join(webRoot, p),
  );
  const newest = Math.max(...sources.filter(existsSync).map(newestMtime));
  if (existsSync(index) && statSync(index).mtimeMs >= newest) return;
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: webRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}
