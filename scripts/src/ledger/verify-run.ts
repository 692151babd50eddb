import type { Kysely } from 'kysely';
import { verifyLog, type EventStoreTables } from '@filiere/event-store';
import { assembleProduct, product, type ContextModule } from '@filiere/api/modules';

/**
 * Checks the whole event log's hash chain, and that every event decodes through the
 * modules' catalogue, and prints the outcome. Returns the exit code: 0 when the chain
 * holds, 1 at the first broken position.
 */
export async function runLedgerVerify<DB extends EventStoreTables>(
  db: Kysely<DB>,
  print: (line: string) => void,
  modules?: readonly ContextModule[],
): Promise<0 | 1> {
  const { catalogue } = modules ? assembleProduct(modules, { demo: false }) : product;
  const report = await verifyLog(db, {
    catalogue,
    onProgress: (checked) => {
      if (checked > 0 && checked % 100_000 === 0) print(`… ${checked} events checked`);
    },
  });
  if (report.ok) {
    print(`${report.checked} events checked: OK`);
    return 0;
  }
  print(`${report.checked} events checked before the break.`);
  print(`BROKEN at position ${report.brokenAt}: ${report.reason}`);
  return 1;
}
