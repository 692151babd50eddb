import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { InputsDbTables } from '../db.js';
import { linkEvents } from './input-commands.js';
import type { Database } from '../../../database.js';

const t = useTestDatabase<Database>();

/**
 * A link's IndustrialAttached and InputProviderAssigned events are read from the log by
 * `(data->>'linkId')::integer` on every assignment and delivery: the plan of both reads must
 * be an index scan of `events_link_id_idx` matching the link, never a scan of the whole log.
 * Sequential scans are switched off for the EXPLAIN so that the plan shows whether an index
 * answers the predicate at all (on a small test table the planner would scan it anyway).
 */
describe('a link’s events are read through an index', () => {
  it('IndustrialAttached and InputProviderAssigned by link: index scans on events_link_id_idx', async () => {
    const plans = await narrowDb<InputsDbTables>()(t.db)
      .transaction()
      .execute(async (db) => {
        await sql`set local enable_seqscan = off`.execute(db);
        const plan = async (type: 'IndustrialAttached' | 'InputProviderAssigned') => {
          const rows = await linkEvents(db, type, 42).select('stream_id').explain();
          return rows.map((r) => Object.values(r).join(' ')).join('\n');
        };
        return [await plan('IndustrialAttached'), await plan('InputProviderAssigned')];
      });
    for (const plan of plans) {
      expect(plan).toMatch(
        /Index (Only )?Scan using events_link_id_idx|Bitmap Index Scan on events_link_id_idx/,
      );
      expect(plan).toMatch(/Index Cond: .*linkId/);
      expect(plan).not.toMatch(/Seq Scan/);
    }
  });
});
