import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import * as noTrigram from './20261130_0252_wallet_transactions_no_trigram.js';
import type { Database } from '../../../database.js';

const t = useTestDatabase<Database>();

const ginIndexes = async () =>
  (
    await sql<{ indexname: string }>`select indexname from pg_indexes
      where schemaname = 'public' and tablename = 'wallet_transactions'
        and indexdef like '%USING gin%' order by indexname`.execute(t.db)
  ).rows.map((r) => r.indexname);

describe('migration 20261130_0252: wallet_transactions without trigram indexes', () => {
  it('leaves none, also when a rebuild renamed them, and down puts both back', async () => {
    expect(await ginIndexes()).toEqual([]);
    await noTrigram.down(t.db);
    expect(await ginIndexes()).toEqual([
      'wallet_transactions_reason_trgm',
      'wallet_transactions_reference_trgm',
    ]);
    // A rebuilt table's indexes are named by PostgreSQL after its `like … including all` copy.
    await sql`alter index wallet_transactions_reference_trgm rename to wallet_transactions_reference_idx`.execute(
      t.db,
    );
    await noTrigram.up(t.db);
    expect(await ginIndexes()).toEqual([]);
  });
});
