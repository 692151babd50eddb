import { narrowDb } from '@filiere/platform';
import { sql, type Kysely } from 'kysely';
import type { ProjectionTables } from './migrations/tables.js';

export interface Checkpoint {
  name: string;
  position: number;
  updatedAt: Date;
  lastError: string | null;
}

/** Creates the checkpoint row at 0 if the projector has none yet. */
export async function ensureCheckpoint<DB extends ProjectionTables>(
  db: Kysely<DB>,
  name: string,
): Promise<void> {
  await narrowDb<ProjectionTables>()(db)
    .insertInto('projection_checkpoints')
    .values({ name, position: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * Locks the projector's checkpoint row until the transaction ends: two workers
 * never apply the same projector at once (the second waits, then sees the
 * first one's new position).
 */
export async function lockCheckpoint<DB extends ProjectionTables>(
  trx: Kysely<DB>,
  name: string,
): Promise<number> {
  const position = await tryLockCheckpoint(trx, name);
  if (position === undefined) throw new Error(`No checkpoint row for projector ${name}`);
  return position;
}

/** lockCheckpoint, or undefined when the projector has no row yet. */
export async function tryLockCheckpoint<DB extends ProjectionTables>(
  trx: Kysely<DB>,
  name: string,
): Promise<number | undefined> {
  const { rows } = await sql<{ position: number }>`
    select position from public.projection_checkpoints where name = ${name} for update`.execute(
    trx,
  );
  return rows[0]?.position;
}

export async function saveCheckpoint<DB extends ProjectionTables>(
  trx: Kysely<DB>,
  name: string,
  position: number,
): Promise<void> {
  await sql`update public.projection_checkpoints
            set position = ${position}, updated_at = now(), last_error = null
            where name = ${name}`.execute(trx);
}

export async function recordFailure<DB extends ProjectionTables>(
  db: Kysely<DB>,
  name: string,
  error: string,
): Promise<void> {
  await sql`update public.projection_checkpoints set last_error = ${error.slice(0, 2000)}, updated_at = now()
            where name = ${name}`.execute(db);
}

export async function readCheckpoints<DB extends ProjectionTables>(
  db: Kysely<DB>,
): Promise<Checkpoint[]> {
  const rows = await narrowDb<ProjectionTables>()(db)
    .selectFrom('projection_checkpoints')
    .select(['name', 'position', 'updated_at', 'last_error'])
    .orderBy('name')
    .execute();
  return rows.map((r) => ({
    name: r.name,
    position: r.position,
    updatedAt: r.updated_at,
    lastError: r.last_error,
  }));
}
