/**
 * Canonical JSON: the JSON text of a value with object keys sorted (by UTF-16
 * code unit, JavaScript's default order), no whitespace, and what JSON cannot
 * hold dropped exactly as JSON.stringify drops it (undefined, functions;
 * `toJSON` applied). Two equal JSON values always give the same text, so the
 * hash of an event read back from jsonb equals the hash computed at append.
 */
export function canonicalJson(value: unknown): string {
  const plain: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
  return write(plain);
}

function write(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(write).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${write(record[k])}`).join(',')}}`;
}
