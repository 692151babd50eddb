/**
 * Canonical JSON: the JSON text of a value with object keys sorted (by UTF-16
 * code unit, JavaScript's default order), no whitespace, and what JSON cannot
 * hold dropped exactly as JSON.stringify drops it (undefined, functions and
 * symbols; `toJSON` applied; non-finite numbers as null). Two equal JSON values
 * always give the same text, so the hash of an event read back from jsonb
 * equals the hash computed at append.
 *
 * The hash chain depends on this exact text: canonical-json.test.ts checks it byte for byte
 * against the first implementation (arrays of parts joined, keys always sorted) on arbitrary
 * values. This one builds the text by concatenation, sorts the keys only when they are not in
 * order already (the usual case for objects built by the same code) and quotes each key once
 * (a key needs JSON.stringify only when it holds a character JSON escapes).
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

/** A character JSON.stringify writes escaped: `"`, `\`, a control character, a surrogate. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

const quoteKey = (key: string) => (NEEDS_ESCAPE.test(key) ? JSON.stringify(key) : `"${key}"`);

function write(input: unknown): string | undefined {
  let value = input;
  if (value !== null && typeof value === 'object' && typeof (value as any).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonicalJson: a bigint cannot be written as JSON');
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) text += ',';
          // A hole of a sparse array writes nothing, as the first implementation's
          // `map(...).join(',')` did (no stored event has one: jsonb would refuse the text).
          if (i in value) text += write(value[i]) ?? 'null';
        }
        return text + ']';
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = 1; i < keys.length; i++) {
        if (keys[i - 1]! > keys[i]!) {
          keys.sort();
          break;
        }
      }
      let text = '{';
      let first = true;
      for (const key of keys) {
        const item = write(record[key]);
        if (item === undefined) continue;
        text += first ? quoteKey(key) : `,${quoteKey(key)}`;
        text += ':';
        text += item;
        first = false;
      }
      return text + '}';
    }
    default:
      return undefined; // undefined, function, symbol
  }
}
