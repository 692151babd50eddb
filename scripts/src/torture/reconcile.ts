import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { CommandPipeline, EventStore } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import { product, type Database } from '@filiere/api/modules';
import {
  DEFAULT_WINDOW_MS,
  fetchFedapayDay,
  importLines,
  runReconciliation,
  type ReconciliationTables,
  type StatementLine,
} from '@filiere/api/reconciliation';
import type { Violation } from './checker.js';
import type { ProviderStub } from './provider-stub.js';

/** The Benin day (UTC+1) of an instant. */
const beninDay = (ms: number) => new Date(ms + 3_600_000).toISOString().slice(0, 10);

/**
 * After the load and its faults: the provider stub writes its own statement (its transactions
 * and payouts, through FedaPay's list API), plus one payment on purpose that no supply asked
 * for; reconciling it against the ledger must find that payment as the only exception (money
 * taken, not credited) and nothing else: every credited supply and every payout the ledger
 * shows paid is on the statement, and nothing the provider moved is missing from the ledger.
 */
export async function checkReconciliation(
  db: Kysely<Database>,
  stub: ProviderStub,
  stubUrl: string,
  log: (line: string) => void,
): Promise<Violation[]> {
  const violations: Violation[] = [];
  const fail = (detail: string) => violations.push({ invariant: 'reconciliation', detail });
  const stray = `APP-STRAY${Date.now()}`;
  stub.pay(stray, 4_321, true);

  const days = new Set<string>();
  for (const t of stub.transactions.values()) days.add(beninDay(Date.parse(t.at)));
  for (const p of stub.payouts.values()) if (p.at) days.add(beninDay(Date.parse(p.at)));
  const lines: StatementLine[] = [];
  for (const day of [...days].sort()) {
    lines.push(...(await fetchFedapayDay({ baseUrl: stubUrl, secretKey: 'sk_torture' }, day)));
  }
  const pipeline = new CommandPipeline(new EventStore(db, product.catalogue), {
    batchMax: 64,
    batchWaitMs: 1,
  });
  for (const stream of product.streams) pipeline.registerStreamType(stream);
  try {
    const imported = await importLines({ pipeline }, 'FEDAPAY', lines, null);
    // The API's and workers' projectors record the lines; the run reads them.
    for (let waited = 0; ; waited += 200) {
      const { n } = await db
        .selectFrom('reconciliation_lines')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('source', '=', 'FEDAPAY')
        .executeTakeFirstOrThrow();
      if (Number(n) >= imported.recorded + imported.known) break;
      if (waited > 60_000) {
        fail(`statement lines not projected after 60 s (${n} of ${lines.length})`);
        return violations;
      }
      await sleep(200);
    }
    const last = [...days].sort().pop()!;
    const closing = new Date(Date.parse(`${last}T00:00:00+01:00`) + 86_400_000);
    const result = await runReconciliation(
      {
        db: narrowDb<ReconciliationTables>()(db),
        pipeline,
        limits: { maxCommandAmount: Number.MAX_SAFE_INTEGER, maxBalance: Number.MAX_SAFE_INTEGER },
        clock: () => new Date(),
        windowMs: DEFAULT_WINDOW_MS,
      },
      'FEDAPAY',
      // The day after the last: every line and movement had its next day.
      beninDay(closing.getTime()),
    );
    log(
      `reconciliation: ${lines.length} statement lines, ${result.matched} matched, ${result.opened} exceptions`,
    );
    const opened = await db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'ExceptionOpened')
      .execute();
    const found = opened.map((e) => e.data as { kind: string; reference: string | null });
    const expected = found.filter((e) => e.kind === 'MISSING_IN_LEDGER' && e.reference === stray);
    if (expected.length !== 1) fail(`the stray payment ${stray} was not found as an exception`);
    for (const e of found) {
      if (e.reference === stray && e.kind === 'MISSING_IN_LEDGER') continue;
      fail(`unexpected exception ${e.kind} for ${e.reference ?? 'no reference'}`);
    }
  } finally {
    await pipeline.close();
  }
  return violations;
}
