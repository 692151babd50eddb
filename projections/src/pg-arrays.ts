import { sql, type RawBuilder } from 'kysely';

/**
 * PostgreSQL array literals for the projectors' `unnest($1::text[], $2::bigint[], …)` writes:
 * one text parameter per column, whatever the batch's size, so the statement keeps one shape
 * (PostgreSQL parses and plans a small statement; Kysely compiles a handful of nodes).
 *
 * Built here rather than by node-postgres (which turns a JS array into the same literal) because
 * its per-element path (prepareValue, two regex replaces, a quoted copy per element) was the
 * largest Node cost left in the history projector's insert once the statement had one shape.
 * Every text element is quoted, so commas, braces, spaces, an empty string and the word NULL
 * stay text; `"` and `\` are escaped; null is NULL.
 */

/** `text[]` literal of strings (null → NULL). */
export function textArray(values: readonly (string | null | undefined)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i) out += ',';
    const v = values[i];
    if (v === null || v === undefined) out += 'NULL';
    else if (v.includes('"') || v.includes('\\')) out += `"${v.replace(/["\\]/g, '\\$&')}"`;
    else out += `"${v}"`;
  }
  return `${out}}`;
}

/**
 * `bigint[]` / `integer[]` literal of integers: numbers, bigints or decimal text (null → NULL).
 * Numbers must be integers (a safe integer prints without an exponent).
 */
export function intArray(values: readonly (number | bigint | string | null | undefined)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i) out += ',';
    const v = values[i];
    out += v === null || v === undefined ? 'NULL' : String(v);
  }
  return `${out}}`;
}

/** `boolean[]` literal (null → NULL). */
export function boolArray(values: readonly (boolean | null | undefined)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i) out += ',';
    const v = values[i];
    out += v === null || v === undefined ? 'NULL' : v ? 't' : 'f';
  }
  return `${out}}`;
}

/**
 * `timestamptz[]` literal of instants, to the millisecond as a JS Date holds them. Rows of one
 * event or one group commit share their instant: the previous element's text is reused.
 */
export function instantArray(values: readonly (Date | null | undefined)[]): string {
  let out = '{';
  let lastTime = NaN;
  let lastText = '';
  for (let i = 0; i < values.length; i++) {
    if (i) out += ',';
    const v = values[i];
    if (v === null || v === undefined) {
      out += 'NULL';
      continue;
    }
    const time = v.getTime();
    if (time !== lastTime) {
      lastTime = time;
      lastText = v.toISOString();
    }
    out += lastText;
  }
  return `${out}}`;
}

/*
 * Query pieces over those literals, for statements written with Kysely's `sql` (the projectors
 * name their tables through the query builder: the live or a replay's schema; only the values
 * are bound).
 */

type Maybe<T> = T | null | undefined;

export const texts = (values: readonly Maybe<string>[]): RawBuilder<unknown> =>
  sql`${textArray(values)}::text[]`;
/** Text read as uuid[], date[] or timestamptz[] (ISO text: what an event's data holds). */
export const uuids = (values: readonly Maybe<string>[]): RawBuilder<unknown> =>
  sql`${textArray(values)}::uuid[]`;
export const dates = (values: readonly Maybe<string>[]): RawBuilder<unknown> =>
  sql`${textArray(values)}::date[]`;
export const instants = (values: readonly Maybe<string>[]): RawBuilder<unknown> =>
  sql`${textArray(values)}::timestamptz[]`;
export const bigints = (values: readonly Maybe<number | bigint>[]): RawBuilder<unknown> =>
  sql`${intArray(values)}::bigint[]`;
export const ints = (values: readonly Maybe<number>[]): RawBuilder<unknown> =>
  sql`${intArray(values)}::int[]`;
export const booleans = (values: readonly Maybe<boolean>[]): RawBuilder<unknown> =>
  sql`${boolArray(values)}::boolean[]`;

/** The rows of a multi-row insert, one array per column, in the insert's column order. */
export const unnest = (...columns: RawBuilder<unknown>[]): RawBuilder<unknown> =>
  sql`select * from unnest(${sql.join(columns)})`;

/** `column = any($1::text[])`: one parameter for any number of ids. */
export const anyText = (values: readonly string[]): RawBuilder<string> =>
  sql<string>`any(${textArray(values)}::text[])`;

/** `column = any($1::uuid[])` (identity's uuid columns). */
export const anyUuid = (values: readonly string[]): RawBuilder<string> =>
  sql<string>`any(${textArray(values)}::uuid[])`;

/** One array per column: `column(rows, 'x')` = every row's x, in order. */
export function column<T, K extends keyof T>(rows: readonly T[], key: K): T[K][] {
  const out = new Array<T[K]>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = rows[i]![key];
  return out;
}
