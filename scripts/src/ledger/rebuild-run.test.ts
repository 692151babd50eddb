import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ContextModule } from '@filiere/api/modules';
import { defineEvent } from '@filiere/event-store';
import { useTestDatabase } from '@filiere/platform/testing';
import { catchUp, type Projector } from '@filiere/projections';
import {
  appendTestEvents,
  countingProjector,
  createCountingTables,
  ensureEventsTable,
  snapshotCounting,
} from '@filiere/projections/testing';
import { runLedgerCheck } from './check-run.js';
import { runLedgerRebuild } from './rebuild-run.js';
import type { ProjectionTables } from '@filiere/projections';

const t = useTestDatabase<ProjectionTables>();

/** The ledger commands take projectors and catalogue from modules: one for the counting projector. */
const Counted = defineEvent({ type: 'Counted', version: 1, schema: z.object({}) });
const countingModule = (projector: Projector): ContextModule => ({
  name: 'counting',
  events: [Counted],
  migrations: {},
  projectors: [projector],
});

beforeAll(async () => {
  await ensureEventsTable(t.db);
  await createCountingTables(t.db, 'cli');
  await appendTestEvents(t.db, [
    { streamId: 'x-1', type: 'Counted' },
    { streamId: 'x-2', type: 'Counted' },
  ]);
});

describe('ledger:rebuild and ledger:check', () => {
  it('check exits 0 on a healthy projection, 1 with the differing rows printed; rebuild repairs it', async () => {
    const projector = countingProjector('cli');
    const modules = [countingModule(projector)];
    await catchUp(t.db, projector);
    const lines: string[] = [];
    const print = (l: string) => lines.push(l);
    expect(await runLedgerCheck(t.db, { names: [], modules, print })).toBe(0);
    expect(lines.at(-1)).toMatch(/^cli: OK at position \d+$/);

    const healthy = await snapshotCounting(t.db, 'cli');
    await sql`update cli_counts set n = 42 where stream_id = 'x-1'`.execute(t.db);
    lines.length = 0;
    expect(await runLedgerCheck(t.db, { names: ['cli'], modules, print })).toBe(1);
    expect(lines).toContain('  cli_counts live only:   {"stream_id":"x-1","n":42}');
    expect(lines.some((l) => l.startsWith('  cli_counts replay only: {"stream_id":"x-1"'))).toBe(
      true,
    );

    lines.length = 0;
    expect(await runLedgerRebuild(t.db, { names: ['cli'], modules, print })).toBe(0);
    expect(lines[0]).toMatch(/^cli: rebuilt from \d+ events up to position \d+/);
    expect(await snapshotCounting(t.db, 'cli')).toEqual(healthy);
    expect(await runLedgerCheck(t.db, { names: [], modules, print })).toBe(0);
  });

  it('names unknown projectors and exits 2', async () => {
    const lines: string[] = [];
    const code = await runLedgerRebuild(t.db, {
      names: ['nope'],
      modules: [countingModule(countingProjector('cli'))],
      print: (l) => lines.push(l),
    });
    expect(code).toBe(2);
    expect(lines[0]).toBe('Unknown projector: nope (known: cli)');
  });
});
