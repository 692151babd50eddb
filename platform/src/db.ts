import { Kysely, PostgresDialect, type ColumnType } from 'kysely';
import pg from 'pg';
import { prepareRepeatedStatements, StatementNames } from './prepared-statements.js';

// int8 (bigint) columns hold money and positions: parse them to numbers, refusing
// any value JavaScript cannot represent exactly.
pg.types.setTypeParser(20, (value: string) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) {
    throw new RangeError(`bigint ${value} is outside the safe integer range`);
  }
  return parsed;
});

/** A `timestamptz` with a database default: read as a Date, optional on insert. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

/** A `jsonb` column: any JSON value on insert and update (as text or value), `unknown` when read. */
export type Json<Read = unknown> = ColumnType<Read, unknown, unknown>;

/** The tables platform's migrations create. */
export interface PlatformTables {
  platform_meta: {
    key: string;
    value: Json;
    updated_at: CreatedAt;
  };
}

/**
 * The same connection seen through fewer tables. `Kysely<DB>` is invariant in `DB`, so the
 * API's merged database cannot be passed where an engine expects its own tables: this is
 * the one cast that allows it, checked (the wide database must hold every narrow table).
 * `narrowDb<EventStoreTables>()(db)` gives the event store the tables it owns.
 */
export function narrowDb<Narrow>(): <Wide extends Narrow>(db: Kysely<Wide>) => Kysely<Narrow> {
  return (db) => db as unknown as Kysely<Narrow>;
}

export interface DbOptions {
  max?: number;
  applicationName?: string;
  /**
   * Send the statements the process repeats as named prepared statements (default true):
   * see prepared-statements.ts (and there, about transaction-pooling proxies).
   */
  prepare?: boolean;
}

/** One set of statement names per process: every pool's connections prepare the same. */
const statementNames = new StatementNames();

export function createPool(url: string, options: DbOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'filiere',
  });
  // An idle client that loses its server (restart, network) must not crash the process.
  pool.on('error', () => undefined);
  // Nor a checked-out one: pg-pool removes its own listener while a client is lent, and a
  // connection closed between two queries of a transaction (PostgreSQL fast shutdown)
  // then emitted an unhandled 'error' that killed the process (found by the bank test).
  // The failure still reaches the caller's next query, and the pool drops the client.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    if (options.prepare ?? true) prepareRepeatedStatements(client, statementNames);
  });
  return pool;
}

export function createDb<DB>(url: string, options: DbOptions = {}): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: createPool(url, options) }) });
}

/** Replaces the database name in a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
