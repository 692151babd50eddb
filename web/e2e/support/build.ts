import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureWebBuilt, webDist, withWebBuildLock } from '../../../scripts/src/web-build.js';

export { webRoot } from '../../../scripts/src/web-build.js';

/**
 * Builds the web app when `web/dist` is missing or older than its sources (one build at a time
 * across test files and `npm start`), then returns a private copy of it so a rebuild by another
 * test run cannot pull files from under this server.
 */
export async function builtWebCopy(): Promise<{ dir: string; remove(): void }> {
  await ensureWebBuilt();
  return withWebBuildLock(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'filiere-web-'));
    cpSync(webDist, dir, { recursive: true });
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  });
}
