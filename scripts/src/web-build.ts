import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Builds the web app with Vite when `dist/index.html` is missing. */
export async function ensureWebBuilt(webDist: string, log: (msg: string) => void): Promise<void> {
  if (existsSync(path.join(webDist, 'index.html'))) return;
  // The browser tests build and copy web/dist under this lock (web/e2e/support/build.ts); a
  // build of ours running beside theirs left them a half-written copy (blank pages in CI).
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      if (existsSync(BUILD_LOCK) && Date.now() - statSync(BUILD_LOCK).mtimeMs > 300_000) {
        rmSync(BUILD_LOCK, { recursive: true, force: true });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (existsSync(path.join(webDist, 'index.html'))) return;
    await build(webDist, log);
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

const BUILD_LOCK = path.join(os.tmpdir(), 'filiere-web-build.lock');

async function build(webDist: string, log: (msg: string) => void): Promise<void> {
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
