import type { Kysely } from 'kysely';
import { verifyLog } from '@filiere/event-store';

/**
 * Checks the whole event log's hash chain and prints the outcome. Returns the
 * exit code: 0 when the chain holds, 1 at the first broken position.
 */
export async function runLedgerVerify(
  db: Kysely<any>,
  print: (line: string) => void,
): Promise<0 | 1> {
  const report = await verifyLog(db, {
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
