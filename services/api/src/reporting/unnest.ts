import { sql, type RawBuilder } from 'kysely';

/*
 * A batch's rows as ONE array parameter per column: `insert … select * from unnest($1::text[],
 * $2::bigint[], …)`, `… where id = any($1::text[])`. A multi-row `.values([...])` binds one
 * parameter per cell: Kysely compiles (and pg serializes) thousands of them per statement, and
 * PostgreSQL parses and plans a different statement for every number of rows. With arrays the
 * statement is small and the same whatever the batch, and it has no 65,535-parameter limit.
 * Only the values are bound; the statements name their tables through the query builder (the
 * projector's Kysely, bound to the live or a replay's schema).
 *
 * Each array goes as the text of its PostgreSQL array literal, built here in one pass: the
 * literal pg would send for the JS array (every text element quoted, `\` and `"` escaped, null
 * and undefined as NULL), without pg's per-element conversions, which cost about a third of
 * the dashboard projector's own CPU.
 */

const ESCAPED = /["\\]/;

/** `{"a","b",NULL}`: a text[] literal. */
export function textArray(values: readonly (string | null | undefined)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = 'NULL';
    else {
      const s = String(v);
      parts[i] = ESCAPED.test(s) ? `"${s.replace(/[\\"]/g, '\\$&')}"` : `"${s}"`;
    }
  }
  return `{${parts.join(',')}}`;
}

/** `{1,-2,NULL}`: an integer array literal. */
export function numberArray(values: readonly (number | null | undefined)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    parts[i] = v === null || v === undefined ? 'NULL' : String(v);
  }
  return `{${parts.join(',')}}`;
}

export const texts = (values: readonly (string | null)[]): RawBuilder<unknown> =>
  sql`${textArray(values)}::text[]`;
export const bigints = (values: readonly number[]): RawBuilder<unknown> =>
  sql`${numberArray(values)}::bigint[]`;
export const ints = (values: readonly number[]): RawBuilder<unknown> =>
  sql`${numberArray(values)}::int[]`;

/** The rows of a multi-row insert, one array per column, in the insert's column order. */
export const unnest = (...columns: RawBuilder<unknown>[]): RawBuilder<unknown> =>
  sql`select * from unnest(${sql.join(columns)})`;

/** `column = any($1::text[])`: one parameter for any number of ids. */
export const anyText = (values: readonly string[]): RawBuilder<string> =>
  sql<string>`any(${textArray(values)}::text[])`;

/** `column = any($1::uuid[])` (identity's uuid columns). */
export const anyUuid = (values: readonly string[]): RawBuilder<string> =>
  sql<string>`any(${textArray(values)}::uuid[])`;
