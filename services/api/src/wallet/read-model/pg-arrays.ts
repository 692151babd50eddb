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
