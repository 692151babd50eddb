import type { Kysely } from 'kysely';
import { checkProjector, type ProjectionTables } from '@filiere/projections';
import { ledgerProjection, selectProjectors, type LedgerProjectionOptions } from './rebuild-run.js';

/**
 * `ledger:check [projector…]`: replays each projector into a scratch schema
 * and compares with the live tables. Exit 0 when equal, 1 on any difference
 * (the differing rows are printed), 2 for an unknown projector.
 */
export async function runLedgerCheck<DB extends ProjectionTables>(
  db: Kysely<DB>,
  opts: LedgerProjectionOptions,
): Promise<number> {
  const { projectors: available, decode } = ledgerProjection(opts);
  const selected = selectProjectors(opts.names, available);
  if ('unknown' in selected) {
    opts.print(`Unknown projector: ${selected.unknown.join(', ')}`);
    return 2;
  }
  let differing = 0;
  for (const projector of selected) {
    const result = await checkProjector(db, projector, { decode });
    if (!result.differences.length) {
      opts.print(`${projector.name}: OK at position ${result.position}`);
      continue;
    }
    differing++;
    opts.print(`${projector.name}: DIFFERENT at position ${result.position}`);
    for (const diff of result.differences) {
      for (const row of diff.onlyLive)
        opts.print(`  ${diff.table} live only:   ${JSON.stringify(row)}`);
      for (const row of diff.onlyReplay) {
        opts.print(`  ${diff.table} replay only: ${JSON.stringify(row)}`);
      }
    }
  }
  if (!selected.length) opts.print('No projector registered: nothing to check.');
  return differing ? 1 : 0;
}
