import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './schema/tables.js';
import type { EventCatalogue } from './catalogue.js';
import { GENESIS_HASH, eventHash } from './hash.js';
import { readAllRaw } from './read.js';

export interface VerifyReport {
  /** Events whose hash was recomputed and matched. */
  checked: number;
  ok: boolean;
  /** First position where the chain breaks (a gap, a changed event, a wrong head). */
  brokenAt?: number;
  reason?: string;
}

/**
 * Walks the whole log in position order, recomputes the hash chain from the
 * genesis hash and reports the first position where it breaks: a missing
 * position, a stored hash that is not sha256(previous ‖ canonical event), or a
 * head row that disagrees with the last event. With a catalogue, each event must also
 * decode through it (known type, payload valid, upcaster for an older version): the log
 * is one this code can read.
 */
export async function verifyLog<DB extends EventStoreTables>(
  db: Kysely<DB>,
  options: {
    pageSize?: number;
    onProgress?: (checked: number) => void;
    catalogue?: EventCatalogue;
  } = {},
): Promise<VerifyReport> {
  const pageSize = options.pageSize ?? 5000;
  let previousHash = GENESIS_HASH;
  let last = 0;
  for (;;) {
    const page = await readAllRaw(db, { after: last, limit: pageSize });
    for (const event of page) {
      if (event.position !== last + 1) {
        return broken(last, last + 1, `position ${last + 1} is missing`);
      }
      if (eventHash(previousHash, event) !== event.hash) {
        return broken(last, event.position, 'stored hash does not match the event');
      }
      if (options.catalogue) {
        try {
          options.catalogue.decode(event.position, event.type, event.schemaVersion, event.data);
        } catch (error) {
          return broken(last, event.position, (error as Error).message);
        }
      }
      previousHash = event.hash;
      last = event.position;
    }
    options.onProgress?.(last);
    if (page.length < pageSize) break;
  }
  const { rows } = await sql<{ position: number; hash: string }>`
    select position, hash from event_head where id`.execute(db);
  const head = rows[0];
  if (!head || Number(head.position) !== last || head.hash !== previousHash) {
    return broken(last, last + 1, 'the head row disagrees with the last event');
  }
  return { checked: last, ok: true };
}

function broken(checked: number, brokenAt: number, reason: string): VerifyReport {
  return { checked, ok: false, brokenAt, reason };
}
