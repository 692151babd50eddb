import type { Kysely } from 'kysely';
import { assembleProduct, product, type ContextModule } from '@filiere/api/modules';
import {
  catalogueDecoder,
  rebuildProjector,
  type ProjectionTables,
  type Projector,
} from '@filiere/projections';

export interface LedgerProjectionOptions {
  /** Projector names from the command line; all the modules' when empty. */
  names: string[];
  /** Whose projectors and event catalogue to use; default the product's (modules.ts). */
  modules?: readonly ContextModule[];
  print: (line: string) => void;
}

/**
 * The projectors and the decoder of the modules: the same catalogue as the live system,
 * so a replay upcasts exactly as the live projectors did, and an event type no module
 * defines stops the replay instead of passing through undecoded.
 */
export function ledgerProjection(opts: Pick<LedgerProjectionOptions, 'modules'>) {
  const { projectors, catalogue } = opts.modules
    ? assembleProduct(opts.modules, { demo: false })
    : product;
  return { projectors, decode: catalogueDecoder(catalogue) };
}

/** The projectors named (all when none), or a message naming the unknown ones. */
export function selectProjectors(
  names: string[],
  available: readonly Projector[],
): readonly Projector[] | { unknown: string[] } {
  if (!names.length) return available;
  const byName = new Map(available.map((p) => [p.name, p]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length) return { unknown };
  return names.map((n) => byName.get(n)!);
}

/**
 * `ledger:rebuild [projector…]`: rebuilds each projector's tables from
 * position 0 and swaps them in. Exit code 0, or 2 for an unknown projector.
 */
export async function runLedgerRebuild<DB extends ProjectionTables>(
  db: Kysely<DB>,
  opts: LedgerProjectionOptions,
): Promise<number> {
  const { projectors: available, decode } = ledgerProjection(opts);
  const selected = selectProjectors(opts.names, available);
  if ('unknown' in selected) {
    opts.print(
      `Unknown projector: ${selected.unknown.join(', ')} (known: ${available.map((p) => p.name).join(', ') || 'none'})`,
    );
    return 2;
  }
  for (const projector of selected) {
    const result = await rebuildProjector(db, projector, { decode });
    const rate = result.ms > 0 ? Math.round(result.events / (result.ms / 1000)) : result.events;
    opts.print(
      `${projector.name}: rebuilt from ${result.events} events up to position ${result.position} ` +
        `in ${(result.ms / 1000).toFixed(2)} s (${rate} events/s); tables ${projector.tables.join(', ')} swapped in`,
    );
  }
  if (!selected.length) opts.print('No projector registered: nothing to rebuild.');
  return 0;
}
