import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

/** Reference: sort keys of what JSON.stringify itself keeps. */
function reference(value: unknown): string {
  const plain: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
  const write = (v: unknown): string => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
    const r = v as Record<string, unknown>;
    return `{${Object.keys(r)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${write(r[k])}`)
      .join(',')}}`;
  };
  return write(plain);
}

/**
 * The first implementation, kept verbatim: every hash of the chain was computed from its
 * text, so the faster one must write the same bytes for every value.
 */
function firstImplementation(value: unknown): string {
  return firstWrite(value) ?? 'null';
}

function firstWrite(input: unknown): string | undefined {
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
      if (Array.isArray(value)) return `[${value.map((v) => firstWrite(v) ?? 'null').join(',')}]`;
      const record = value as Record<string, unknown>;
      const parts: string[] = [];
      for (const key of Object.keys(record).sort()) {
        const text = firstWrite(record[key]);
        if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return undefined;
  }
}

/** The text, or the error's message when writing throws (a bigint). */
const outcome = (write: (v: unknown) => string, v: unknown) => {
  try {
    return write(v);
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
};

describe('canonical JSON', () => {
  it('sorts keys at every depth and drops what JSON drops', () => {
    const date = new Date('2026-11-21T00:00:00Z');
    expect(
      canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }, undefined], c: 'é' }, t: date }),
    ).toBe('{"a":{"c":"é","d":[3,{"z":1},null]},"b":1,"t":"2026-11-21T00:00:00.000Z"}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ n: Number.NaN, m: -0 })).toBe('{"m":0,"n":null}');
  });

  it('is the sorted-key form of JSON.stringify for any value', () => {
    const value = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.string(), fc.oneof(fc.constant(undefined), fc.jsonValue())),
    );
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
        expect(JSON.parse(canonicalJson(v))).toEqual(JSON.parse(JSON.stringify(v) ?? 'null'));
      }),
    );
  });

  it('writes the same bytes as the first implementation for any value (the hash chain depends on them)', () => {
    // Keys with characters JSON escapes, unsorted keys, numeric keys, dates, holes, boxed
    // values, null prototypes, typed arrays, maps, functions, undefined, -0, NaN, bigints.
    const key = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        '"',
        '\\',
        '\u0000',
        '\u001f',
        '\ud800',
        '\udc00x',
        '\u2028',
        '10',
        '2',
        '-1',
        'é',
        '',
      ),
    );
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: 'small' },
        fc.anything({
          key,
          withBigInt: true,
          withBoxedValues: true,
          withDate: true,
          withMap: true,
          withNullPrototype: true,
          withObjectString: true,
          withSet: true,
          withSparseArray: true,
          withTypedArray: true,
          withUnicodeString: true,
        }),
        fc.dictionary(key, tie('any'), { maxKeys: 8 }),
        fc.array(tie('any'), { maxLength: 6 }),
        fc.constantFrom(undefined, () => 1, Symbol('s'), -0, Number.NaN, Infinity),
        fc.date({ noInvalidDate: true }),
      ),
    })).any;
    fc.assert(
      fc.property(value, (v) => {
        expect(outcome(canonicalJson, v)).toBe(outcome(firstImplementation, v));
      }),
      { numRuns: 1500 },
    );
  });

  it('writes an event as the first implementation did, byte for byte', () => {
    const event = {
      position: 12,
      streamId: 'wallet-0f8c2f9e',
      version: 3,
      type: 'TransferSent',
      schemaVersion: 1,
      data: { walletId: 'w', toWalletId: 'x', amount: 1500, reason: 'Lot "7" \\ é\u0001' },
      metadata: { userId: 'u', commandId: 'c' },
    };
    expect(canonicalJson(event)).toBe(firstImplementation(event));
  });
});
