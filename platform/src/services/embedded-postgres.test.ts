import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureTraversable } from './embedded-postgres.js';

describe('ensureTraversable', () => {
  it('adds execute bits to a private directory', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'filiere-perm-'));
    chmodSync(dir, 0o700);
    await ensureTraversable(dir);
    expect(statSync(dir).mode & 0o7777).toBe(0o711);
    rmSync(dir, { recursive: true });
  });

  it('never takes bits away (a /tmp-like directory keeps sticky and world-write)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'filiere-perm-'));
    chmodSync(dir, 0o1777);
    await ensureTraversable(dir);
    expect(statSync(dir).mode & 0o7777).toBe(0o1777);
    rmSync(dir, { recursive: true });
  });
});

describe('loading the embedded PostgreSQL launcher', () => {
  it('keeps the exit code a process sets (a failing test run must not exit 0)', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const child = spawnSync(
      path.join(root, 'node_modules/.bin/tsx'),
      ['-e', "import('@filiere/platform').then(() => { process.exitCode = 3; });"],
      { cwd: root, encoding: 'utf8' },
    );
    expect(child.stderr).not.toContain('Error');
    expect(child.status).toBe(3);
  });
});
