import { ensureWebBuilt } from '../../../scripts/src/web-build.js';

/**
 * The browser project's global setup: vitest runs it once in a run that has browser files,
 * before the root's (test/global-setup.ts). It starts the web build and returns without
 * waiting for it, so the build runs while PostgreSQL starts, the template is migrated and the
 * first files import their modules, instead of from the first browser file's `beforeAll`. The
 * build lock is taken before this returns: each file's `builtWebCopy` waits for it, then finds
 * the build fresh. A failed build is left to the files: theirs runs it again and fails with
 * its output.
 */
export default function setup(): () => Promise<void> {
  const building = ensureWebBuilt((msg) => console.log(msg)).catch(() => undefined);
  return () => building;
}
