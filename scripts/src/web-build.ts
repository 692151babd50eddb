import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Builds the web app with Vite when `dist/index.html` is missing. */
export async function ensureWebBuilt(webDist: string, log: (msg: string) => void): Promise<void> {
  if (existsSync(path.join(webDist, 'index.html'))) return;
  log('Building the web app (first start only)…');
  await new Promise<void>((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '-w', 'web'], {
      stdio: 'inherit',
      cwd: path.resolve(webDist, '../..'),
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`web build failed (exit ${code})`)),
    );
  });
}
