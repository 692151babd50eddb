import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import { ensureCheckpoint, lockCheckpoint, saveCheckpoint } from './checkpoints.js';
import { readEvents, type EventDecoder, type RecordedEvent } from './events.js';
import type { Projector, PushMessage } from './projector.js';
import { applyEvents } from './runner.js';
import type { ProjectionTables } from './migrations/tables.js';

export interface ReplayOptions {
  after?: number;
  until?: number | undefined;
  batchSize?: number;
  decode?: EventDecoder | undefined;
}

/**
 * Applies events (after, until] to the projector's tables in `schema`, batch by
 * batch, reading the next batch while the current one is applied. Returns the
 * last position read. Pushes are dropped: a replay tells no one.
 */
export async function replay<DB extends ProjectionTables>(
  db: Kysely<DB>,
  projector: Projector,
  schema: string,
  opts: ReplayOptions = {},
): Promise<{ position: number; events: number }> {
  const limit = opts.batchSize ?? 10_000;
  let position = opts.after ?? 0;
  let count = 0;
  const discard: PushMessage[] = [];
  let next: Promise<RecordedEvent[]> = readEvents(db, {
    after: position,
    limit,
    until: opts.until,
  });
  for (;;) {
    const events = await next;
    const last = events.at(-1);
    if (!last) break;
    position = last.position;
    count += events.length;
    next =
      events.length < limit
        ? Promise.resolve([])
        : readEvents(db, { after: position, limit, until: opts.until });
    try {
      await onSearchPath(db, schema, (scoped) =>
        applyEvents(scoped, projector, events, schema, discard, opts.decode),
      );
    } catch (error) {
      await next.catch(() => undefined);
      throw error;
    }
    discard.length = 0;
  }
  return { position, events: count };
}

/**
 * Runs `fn` with `schema` first on PostgreSQL's search_path (transaction-local), so that a
 * projector's raw SQL naming its tables unqualified (`sql\`update grower_debts …\``) writes
 * the replay's copies as its query builder's statements do (`withSchema`), never the live
 * tables: a batched contracts projector once did, and a replay (ledger:check) recovered the
 * live debts a second time. In a transaction the previous path is put back after `fn`;
 * otherwise `fn` runs in a transaction of its own.
 */
async function onSearchPath<DB, T>(
  db: Kysely<DB>,
  schema: string,
  fn: (scoped: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (schema === 'public') return fn(db);
  const path = `"${schema.replaceAll('"', '""')}", public`;
  if (!db.isTransaction) {
    return db.transaction().execute(async (trx) => {
      await sql`select set_config('search_path', ${path}, true)`.execute(trx);
      return fn(trx);
    });
  }
  const old = (await sql<{ old: string }>`select current_setting('search_path') as old`.execute(db))
    .rows[0]!.old;
  await sql`select set_config('search_path', ${path}, true)`.execute(db);
  try {
    return await fn(db);
  } finally {
    await sql`select set_config('search_path', ${old}, true)`.execute(db);
  }
}

/** Empty copies of the projector's live tables (columns, defaults, indexes, constraints). */
export async function createShadowTables<DB extends ProjectionTables>(
  db: Kysely<DB>,
  projector: Projector,
  schema: string,
): Promise<void> {
  await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  for (const table of projector.tables) {
    await sql`create table ${sql.id(schema, table)} (like ${sql.id('public', table)} including all)`.execute(
      db,
    );
  }
}

export async function dropSchema<DB extends ProjectionTables>(
  db: Kysely<DB>,
  schema: string,
): Promise<void> {
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
}

function scratchName(prefix: string, projector: Projector): string {
  const safe = projector.name
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 30);
  return `${prefix}_${safe}_${randomUUID().slice(0, 8)}`;
}

export interface RebuildResult {
  projector: string;
  events: number;
  position: number;
  ms: number;
}

/**
 * Rebuilds a projector's read tables from position 0 into fresh tables, then
 * swaps them in within one short transaction (checkpoint row and live tables
 * locked, the last events applied, tables exchanged, checkpoint set): readers
 * see the old tables or the new ones, never half a rebuild.
 */
export async function rebuildProjector<DB extends ProjectionTables>(
  db: Kysely<DB>,
  projector: Projector,
  opts: { batchSize?: number; decode?: EventDecoder | undefined } = {},
): Promise<RebuildResult> {
  const started = performance.now();
  const schema = scratchName('rebuild', projector);
  await ensureCheckpoint(db, projector.name);
  await createShadowTables(db, projector, schema);
  try {
    const first = await replay(db, projector, schema, {
      batchSize: opts.batchSize,
      decode: opts.decode,
    });
    const final = await db.transaction().execute(async (trx) => {
      await lockCheckpoint(trx, projector.name);
      for (const table of projector.tables) {
        await sql`lock table ${sql.id('public', table)} in access exclusive mode`.execute(trx);
      }
      const rest = await replay(trx, projector, schema, {
        after: first.position,
        batchSize: opts.batchSize,
        decode: opts.decode,
      });
      const old = `${schema}_old`;
      await sql`create schema ${sql.id(old)}`.execute(trx);
      for (const table of projector.tables) {
        await sql`alter table ${sql.id('public', table)} set schema ${sql.id(old)}`.execute(trx);
        await sql`alter table ${sql.id(schema, table)} set schema public`.execute(trx);
      }
      await dropSchema(trx, old);
      await saveCheckpoint(trx, projector.name, rest.position);
      return { position: rest.position, events: first.events + rest.events };
    });
    return {
      projector: projector.name,
      events: final.events,
      position: final.position,
      ms: performance.now() - started,
    };
  } finally {
    await dropSchema(db, schema);
  }
}

export interface TableDifference {
  table: string;
  /** Rows the live table has and a replay does not produce. */
  onlyLive: Record<string, unknown>[];
  /** Rows a replay produces and the live table lacks. */
  onlyReplay: Record<string, unknown>[];
}

export interface CheckResult {
  projector: string;
  position: number;
  differences: TableDifference[];
}

/**
 * Replays the projector into a scratch schema up to its live checkpoint and
 * compares every table with the live one (EXCEPT both ways). The live
 * checkpoint row is locked during the comparison so both sides stand at the
 * same position. At most `sampleLimit` differing rows are returned per side.
 */
export async function checkProjector<DB extends ProjectionTables>(
  db: Kysely<DB>,
  projector: Projector,
  opts: { batchSize?: number; sampleLimit?: number; decode?: EventDecoder | undefined } = {},
): Promise<CheckResult> {
  const sampleLimit = opts.sampleLimit ?? 20;
  const schema = scratchName('check', projector);
  await ensureCheckpoint(db, projector.name);
  await createShadowTables(db, projector, schema);
  try {
    const live0 = await narrowDb<ProjectionTables>()(db)
      .selectFrom('projection_checkpoints')
      .select('position')
      .where('name', '=', projector.name)
      .executeTakeFirstOrThrow();
    const first = await replay(db, projector, schema, {
      until: live0.position,
      batchSize: opts.batchSize,
      decode: opts.decode,
    });
    return await db.transaction().execute(async (trx) => {
      const live = await lockCheckpoint(trx, projector.name);
      await replay(trx, projector, schema, {
        after: first.position,
        until: live,
        batchSize: opts.batchSize,
        decode: opts.decode,
      });
      const differences: TableDifference[] = [];
      for (const table of projector.tables) {
        const a = sql.id('public', table);
        const b = sql.id(schema, table);
        const onlyLive = await sql<Record<string, unknown>>`
          (select * from ${a} except all select * from ${b}) limit ${sampleLimit}`.execute(trx);
        const onlyReplay = await sql<Record<string, unknown>>`
          (select * from ${b} except all select * from ${a}) limit ${sampleLimit}`.execute(trx);
        if (onlyLive.rows.length || onlyReplay.rows.length) {
          differences.push({ table, onlyLive: onlyLive.rows, onlyReplay: onlyReplay.rows });
        }
      }
      return { projector: projector.name, position: live, differences };
    });
  } finally {
    await dropSchema(db, schema);
  }
}
