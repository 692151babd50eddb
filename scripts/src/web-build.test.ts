import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureWebBuilt, isWebBuildFresh, webDist } from './web-build.js';

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
});
