import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { boolArray, instantArray, intArray, textArray } from './pg-arrays.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();

describe('array literals for unnest (real PostgreSQL)', () => {
  it('text: any string comes back as it was, null as null, in order', async () => {
    const awkward = [
      '',
      'NULL',
      'null',
      ' spaced ',
      'a,b',
      '{x}',
      '"quoted"',
      'back\\slash',
      '\\"',
      'accents é – ’',
      '\n\t',
      null,
    ];
    const check = async (values: (string | null)[]) => {
      const { rows } = await sql<{ v: string | null }>`
        select v from unnest(${textArray(values)}::text[]) with ordinality as u(v, i)
        order by i`.execute(t.db);
      expect(rows.map((r) => r.v)).toEqual(values);
    };
    await check(awkward);
    await check([]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.string({ unit: 'binary' }).map((s) => s.replaceAll('\0', '')))),
        check,
      ),
      { numRuns: 50 },
    );
  });

  it('integers past 2^53, booleans and instants keep their values', async () => {
    const big = 2n ** 60n + 7n;
    const at = new Date('2026-11-29T01:02:03.456Z');
    const later = new Date('2026-11-29T01:02:03.457Z');
    const { rows } = await sql<{ n: string | null; b: boolean | null; at: Date | null }>`
      select n::text, b, at from unnest(
        ${intArray([1, -2, big, '9007199254740993', null])}::bigint[],
        ${boolArray([true, false, null, true, false])}::boolean[],
        ${instantArray([at, new Date(at.getTime()), null, later, at])}::timestamptz[]
      ) with ordinality as u(n, b, at, i) order by i`.execute(t.db);
    expect(rows).toEqual([
      { n: '1', b: true, at },
      { n: '-2', b: false, at },
      { n: big.toString(), b: null, at: null },
      { n: '9007199254740993', b: true, at: later },
      { n: null, b: false, at },
    ]);
  });
});
