/**
 * Canonical JSON: the JSON text of a value with object keys sorted (by UTF-16
 * code unit, JavaScript's default order), no whitespace, and what JSON cannot
 * hold dropped exactly as JSON.stringify drops it (undefined, functions and
 * symbols; `toJSON` applied; non-finite numbers as null). Two equal JSON values
 * always give the same text, so the hash of an event read back from jsonb
 * equals the hash computed at append.
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

function write(input: unknown): string | undefined {
  let value = input;
  if (value !== null && typeof value === 'object' && typeof (value as any).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonicalJson: a bigint cannot be written as JSON');
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((v) => write(v) ?? 'null').join(',')}]`;
      const record = value as Record<string, unknown>;
      const parts: string[] = [];
      for (const key of Object.keys(record).sort()) {
        const text = write(record[key]);
        if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return undefined; // undefined, function, symbol
  }
}
