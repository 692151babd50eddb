import type { Kysely } from 'kysely';
import type { EventStoreTables } from '@filiere/event-store';
import {
  DEFAULT_CLAUSES,
  DELIVERY_TERMS_STREAM,
  type Clause,
  type TermsPublishedData,
} from './domain/terms.js';

type Tables = Pick<EventStoreTables, 'events'>;

/** One version of the delivery contract's terms, as kept in the ledger. */
export interface TermsVersion {
  version: number;
  clauses: readonly Clause[];
  /** Who published it (a user id; 'system' for the built-in text); null while not recorded. */
  publishedBy: string | null;
  publishedAt: string | null;
  /** Its position in the ledger (0 for the built-in text before any publication). */
  position: number;
}

const BUILT_IN: TermsVersion = {
  version: 1,
  clauses: DEFAULT_CLAUSES,
  publishedBy: null,
  publishedAt: null,
  position: 0,
};

function versionOf(row: { position: number; data: unknown }): TermsVersion {
  const d = row.data as TermsPublishedData;
  return {
    version: d.version,
    clauses: d.clauses,
    publishedBy: d.publishedBy,
    publishedAt: d.publishedAt,
    position: Number(row.position),
  };
}

/** Every version, newest first (the built-in text alone while nothing was published). */
export async function termsVersions(db: Kysely<Tables>): Promise<TermsVersion[]> {
  const rows = await db
    .selectFrom('events')
    .select(['position', 'data'])
    .where('stream_id', '=', DELIVERY_TERMS_STREAM)
    .where('type', '=', 'ContractTermsPublished')
    .orderBy('version', 'desc')
    .execute();
  return rows.length === 0 ? [BUILT_IN] : rows.map(versionOf);
}

/** The terms in force just before `position` (a contract's creation): see domain/terms.ts. */
export async function termsAt(db: Kysely<Tables>, position: number): Promise<TermsVersion> {
  const row = await db
    .selectFrom('events')
    .select(['position', 'data'])
    .where('stream_id', '=', DELIVERY_TERMS_STREAM)
    .where('type', '=', 'ContractTermsPublished')
    .where('position', '<', position)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? versionOf(row) : BUILT_IN;
}

export async function termsVersionAt(db: Kysely<Tables>, position: number): Promise<number> {
  return (await termsAt(db, position)).version;
}
