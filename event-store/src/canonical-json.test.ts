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
});
