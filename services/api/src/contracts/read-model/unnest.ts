import { sql, type RawBuilder } from 'kysely';

/*
 * A batch's rows as ONE array parameter per column (`… from unnest($1::text[], $2::bigint[],
 * …)`, `where id = any($1::text[])`): one small statement whatever the number of rows, which
 * PostgreSQL parses and plans the same way every time. Only values are bound; the statements
 * name their tables through the projector's query builder (the live or a replay's schema).
 *
 * Each array goes as the text of its PostgreSQL array literal, built in one pass: the literal
 * pg sends for a JS array (every element quoted, `\` and `"` escaped, null and undefined as
 * NULL), without its per-element conversions.
 */

const ESCAPED = /["\\]/;

/** `{"a","b",NULL}`: a text[] literal (also read as uuid[], date[], timestamptz[]). */
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

/** `{1,-2,NULL}` (numbers) or `{t,f}` (booleans). */
function plainArray(values: readonly (number | boolean | null | undefined)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    parts[i] =
      v === null || v === undefined ? 'NULL' : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v);
  }
  return `{${parts.join(',')}}`;
}

export const texts = (values: readonly (string | null | undefined)[]): RawBuilder<unknown> =>
  sql`${textArray(values)}::text[]`;
export const uuids = (values: readonly (string | null | undefined)[]): RawBuilder<unknown> =>
  sql`${textArray(values)}::uuid[]`;
export const dates = (values: readonly (string | null | undefined)[]): RawBuilder<unknown> =>
  sql`${textArray(values)}::date[]`;
export const instants = (values: readonly (string | null | undefined)[]): RawBuilder<unknown> =>
  sql`${textArray(values)}::timestamptz[]`;
export const bigints = (values: readonly (number | null | undefined)[]): RawBuilder<unknown> =>
  sql`${plainArray(values)}::bigint[]`;
export const booleans = (values: readonly boolean[]): RawBuilder<unknown> =>
  sql`${plainArray(values)}::boolean[]`;

/** `column = any($1::text[])`: one parameter for any number of ids. */
export const anyText = (values: readonly string[]): RawBuilder<string> =>
  sql<string>`any(${textArray(values)}::text[])`;

/** One array per column: `column(rows, 'x')` = every row's x, in order. */
export function column<T, K extends keyof T>(rows: readonly T[], key: K): T[K][] {
  const out = new Array<T[K]>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = rows[i]![key];
  return out;
}
