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

/** Creates at 0 the checkpoint rows of those projectors that have none yet (one statement). */
export async function ensureCheckpoints<DB extends ProjectionTables>(
  db: Kysely<DB>,
  names: readonly string[],
): Promise<void> {
  await sql`insert into public.projection_checkpoints (name, position)
    select unnest(${names}::text[]), 0
    on conflict (name) do nothing`.execute(db);
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

/**
 * tryLockCheckpoint for a projector's batch, which also makes the batch's commit asynchronous
 * (`synchronous_commit = off` for this transaction only): the commit does not wait for its WAL
 * flush. A crash can then lose the last batches' commits (within ~3 × wal_writer_delay), rows
 * and checkpoint together — atomicity is unchanged — so the projector re-applies those events
 * from the durable log: exactly-once in effect holds. The events themselves are committed
 * synchronously (visible only once durable), and projectors write only their read tables.
 * Waiting, each projector's commit would queue its own WAL flush beside the appends' (~1 ms
 * fdatasync on a VM's disk, serialized with the appends' group commits).
 */
export async function lockForBatch<DB extends ProjectionTables>(
  trx: Kysely<DB>,
  name: string,
): Promise<number | undefined> {
  const { rows } = await sql<{ position: number }>`
    select position, set_config('synchronous_commit', 'off', true) as commit_mode
    from public.projection_checkpoints where name = ${name} for update`.execute(trx);
  return rows[0]?.position;
}

/**
 * One statement (one snapshot): the projector's checkpoint, the head of the log and whether an
 * event of its types lies between them; when none does, the checkpoint is moved to that head
 * by compare-and-set (`position = from`: a runner holding the row, or a rebuild swapping, that
 * moved it meanwhile wins, and `moved` is false). Undefined when it has no checkpoint row yet.
 */
export async function skipIrrelevant<DB extends ProjectionTables>(
  db: Kysely<DB>,
  projector: { name: string; eventTypes: string[] },
): Promise<{ from: number; head: number; relevant: boolean; moved: boolean } | undefined> {
  const { rows } = await sql<{
    from: string | number;
    head: string | number;
    relevant: boolean;
    moved: boolean;
  }>`
    with p as (
      select c.position as "from",
        (select coalesce(max(e.position), 0) from public.events e) as head
      from public.projection_checkpoints c where c.name = ${projector.name}
    ), r as (
      select p."from", p.head,
        exists (select 1 from public.events e
                where e.position > p."from" and e.position <= p.head
                  and e.type = any(${projector.eventTypes}::text[])) as relevant
      from p
    ), u as (
      update public.projection_checkpoints c
      set position = r.head, updated_at = now(), last_error = null
      from r
      where c.name = ${projector.name} and not r.relevant and r.head > r."from"
        and c.position = r."from"
      returning c.position
    )
    select r."from", r.head, r.relevant, exists (select 1 from u) as moved from r`.execute(db);
  const row = rows[0];
  return (
    row && {
      from: Number(row.from),
      head: Number(row.head),
      relevant: row.relevant,
      moved: row.moved,
    }
  );
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
