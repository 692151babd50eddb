import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ensureWebBuilt,
  isWebBuildFresh,
  webDist,
  webRoot,
  withWebBuildLock,
} from './web-build.js';

/** A warning only React's development build carries (its production build drops them all). */
const DEVELOPMENT_ONLY = 'Each child in a list should have a unique "key" prop';

describe('the web build', () => {
  // Vitest sets NODE_ENV=test in this process, which made Vite bundle React's development build.
  it("is React's production build, whatever NODE_ENV the builder runs with", async () => {
    expect(process.env.NODE_ENV).toBe('test');
    await ensureWebBuilt();
    expect(isWebBuildFresh()).toBe(true);
    const assets = path.join(webDist, 'assets');
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const bundled = scripts.map((f) => readFileSync(path.join(assets, f), 'utf8')).join('\n');
    // The bundle does hold React (its production build's error decoder link).
    expect(bundled).toContain('react.dev/errors/');
    expect(bundled).not.toContain(DEVELOPMENT_ONLY);
  }, 300_000);

  it('a build made for the tests is not the product: outside vitest it is stale, built again', async () => {
    await ensureWebBuilt();
    const mark = path.join(webDist, '.built-for-tests');
    // What `npm start` sees: the same check in a process that is not under vitest.
    const freshOutsideTests = () => {
      const env = { ...process.env };
      delete env.VITEST;
      const check = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          "const m = await import('./scripts/src/web-build.ts'); console.log(m.isWebBuildFresh());",
        ],
        { cwd: path.dirname(webRoot), env, encoding: 'utf8' },
      );
      expect(check.status, check.stderr).toBe(0);
      return check.stdout.trim();
    };
    // Under the build lock: no build or copy of another file sees the mark changed meanwhile.
    await withWebBuildLock(async () => {
      const marked = existsSync(mark);
      try {
        writeFileSync(mark, '');
        expect(isWebBuildFresh()).toBe(true);
        expect(freshOutsideTests()).toBe('false');
        rmSync(mark);
        expect(freshOutsideTests()).toBe('true');
      } finally {
        if (marked) writeFileSync(mark, '');
        else rmSync(mark, { force: true });
      }
    });
  }, 300_000);
});
