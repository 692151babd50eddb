import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Named prepared statements for the statements a process sends again and again.
 *
 * pg sends a query with parameters as an unnamed statement: PostgreSQL parses, analyses and
 * plans its text on every call. On this project's machines that costs more than running the
 * statement does (measured 2026-11-29: the auth guard's user lookup 394 → 172 µs of
 * PostgreSQL CPU per call once named, the wallet's user lookup 532 → 416 µs). A text seen
 * twice in the process is given a name derived from it; each connection prepares it once
 * (pg remembers which it prepared) and then only binds and executes it.
 *
 * Bounded: a connection prepares at most MAX_PER_CONNECTION statements (each holds its parse
 * tree and plan in its PostgreSQL server process, ~45 KiB for a two-table join measured there:
 * under 6 MiB per connection; past that, its other texts go unnamed, and the pool replaces an
 * idle connection after 10 s), a text whose shape varies with its input
 * (an `in (...)` list, a multi-row insert) is mostly seen once and stays unnamed, and the
 * process forgets its counts past MAX_COUNTED texts. Queries without parameters (`begin`,
 * `commit`) keep pg's simple protocol, one message.
 *
 * PostgreSQL re-plans a prepared statement itself when a table it reads changes or the
 * search_path differs (a projection replay's schema); the one change it refuses is a new
 * result shape (`select *` over a table that gained a column while the process ran, as a
 * deployment's migration does under the running version). The connection then gives the text
 * a fresh name and sends it again when it was not in a transaction (the refusal comes before
 * anything ran); a transaction fails as on any error, and its retry prepares the new shape.
 *
 * Behind a transaction-pooling proxy, the proxy must track prepared statements (PgBouncer
 * 1.21+ with `max_prepared_statements`), or the pool be made with `{ prepare: false }`.
 */
export const MAX_PER_CONNECTION = 128;
const MAX_COUNTED = 10_000;

export class StatementNames {
  private readonly named = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  /** The name of `text` if it is sent often enough to deserve one. */
  nameOf(text: string): string | undefined {
    const known = this.named.get(text);
    if (known !== undefined) return known;
    const seen = (this.counts.get(text) ?? 0) + 1;
    if (seen < 2) {
      if (this.counts.size >= MAX_COUNTED) this.counts.clear();
      this.counts.set(text, seen);
      return undefined;
    }
    this.counts.delete(text);
    // PostgreSQL keeps 63 bytes of a name: 'p' and 40 hex digits of SHA-1 fit.
    const name = `p${createHash('sha1').update(text).digest('hex')}`;
    if (this.named.size >= MAX_COUNTED) this.named.clear();
    this.named.set(text, name);
    return name;
  }
}

/** The error PostgreSQL gives a prepared statement whose result columns changed since. */
function isStaleShape(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && /cached plan/.test(message);
}

type Query = (...args: unknown[]) => unknown;

/**
 * Makes `client` send the texts `names` designates as named prepared statements. Only the
 * call shape Kysely uses is changed (`query(text, values)` returning a promise, with at least
 * one value); callbacks, query objects, cursors and streams pass through untouched.
 */
export function prepareRepeatedStatements(client: pg.PoolClient, names: StatementNames): void {
  const query = client.query.bind(client) as Query;
  // The names this connection prepared (or is preparing).
  const prepared = new Set<string>();
  // A shape PostgreSQL refused (see above): this connection's name for it gets a suffix.
  const renamed = new Map<string, string>();
  let generation = 0;
  const send = (text: string, values: unknown[], again: boolean): unknown => {
    const base = names.nameOf(text);
    if (base === undefined) return query(text, values);
    const name = renamed.get(base) ?? base;
    if (!prepared.has(name)) {
      if (prepared.size >= MAX_PER_CONNECTION) return query(text, values);
      prepared.add(name);
    }
    return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
      if (!isStaleShape(error)) throw error;
      renamed.set(base, `${base}_${++generation}`);
      // Refused before it ran: outside a transaction (status idle) nothing happened, so it is
      // sent again under the new name; in one, the transaction failed like on any error.
      if (again && client.getTransactionStatus() === 'I') return send(text, values, false);
      throw error;
    });
  };
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [text, values, callback] = args;
    if (
      typeof text !== 'string' ||
      !Array.isArray(values) ||
      values.length === 0 ||
      callback !== undefined
    ) {
      return query(...args);
    }
    return send(text, values, true);
  };
}
