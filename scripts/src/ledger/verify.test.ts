import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { EventStore } from '@filiere/event-store';
import { product } from '@filiere/api/modules';
import { useTestDatabase } from '@filiere/platform/testing';
import { describe, expect, it } from 'vitest';
import { runLedgerCommand } from './cli.js';
import { runLedgerVerify } from './verify-run.js';
import type { ProjectionTables } from '@filiere/projections';

const database = useTestDatabase<ProjectionTables>();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// ledger:verify also decodes every event through the modules' catalogue: use one of theirs.
const Opened = product.catalogue.get('WalletOpened')!;

async function cli(env: Record<string, string>) {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['scripts/run.mjs', 'scripts/src/ledger/verify.ts'],
      { cwd: root, env: { ...process.env, ...env } },
    );
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout + failed.stderr };
  }
}

/**
 * The same command in this process (the entry's body, minus the exit), for a case that needs no
 * process of its own: a spawned command loads the modules' catalogue again (a few CPU-seconds).
 * Its lines in one text, as cli() gives them.
 */
async function inProcess(env: Record<string, string>) {
  let stdout = '';
  const collect = (line: string) => (stdout += `${line}\n`);
  const code = await runLedgerCommand(
    (db, print) => runLedgerVerify(db, print),
    { ...process.env, ...env },
    { out: collect, err: collect },
  );
  return { code, stdout };
}

describe('npm run ledger:verify', () => {
  it('reports OK, then the first position altered by SQL with exit code 1', async () => {
    const store = new EventStore(database.db, product.catalogue);
    for (let i = 1; i <= 5; i++) {
      await store.append([
        {
          streamId: 'wallet-v',
          expectedVersion: 'any',
          events: [Opened.create({ walletId: `w-${i}`, ownerUserId: 'u-v' })],
        },
      ]);
    }
    const lines: string[] = [];
    expect(await runLedgerVerify(database.db, (l) => lines.push(l))).toBe(0);
    expect(lines).toEqual(['5 events checked: OK']);

    await sql`update events set data = '{"amount": 500}' where position = 3`.execute(database.db);
    const { code, stdout } = await cli({ DATABASE_URL: database.url });
    expect(code).toBe(1);
    expect(stdout).toContain('BROKEN at position 3');
  }, 60_000);

  it('exits 2 without DATABASE_URL when there is no embedded database', async () => {
    const { code, stdout } = await inProcess({
      DATABASE_URL: '',
      DATA_DIR: '/tmp/filiere-no-such-dir',
    });
    expect(code).toBe(2);
    expect(stdout).toContain('No embedded database');
  }, 60_000);
});
