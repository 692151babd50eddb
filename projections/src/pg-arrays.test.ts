import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import {
  bigints,
  boolArray,
  instantArray,
  intArray,
  ints,
  textArray,
  texts,
  unnest,
} from './pg-arrays.js';

const t = useTestDatabase<Record<string, never>>();

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

  it('unnest of texts, bigints and ints reads back as rows, as pg would send the JS arrays', async () => {
    const strings = ['plain', '', 'NULL', null, 'say "hi"', 'back\\slash\\', 'été – 𝄞'];
    const { rows } = await sql<{
      s: string | null;
    }>`select s from (${unnest(texts(strings))}) as u(s)`.execute(t.db);
    expect(rows.map((r) => r.s)).toEqual(strings);
    const viaPg = await sql<{ s: string | null }>`select unnest(${strings}::text[]) as s`.execute(
      t.db,
    );
    expect(viaPg.rows.map((r) => r.s)).toEqual(strings);
    const numbers = [0, -1, 42, 2 ** 53 - 1, -(2 ** 53 - 1)];
    const big = await sql<{
      n: string;
    }>`select n::text as n from (${unnest(bigints(numbers))}) as u(n)`.execute(t.db);
    expect(big.rows.map((r) => Number(r.n))).toEqual(numbers);
    const small = await sql<{
      n: number;
      s: string;
    }>`select n, s from (${unnest(ints([3, -7]), texts(['a', 'b']))}) as u(n, s)`.execute(t.db);
    expect(small.rows).toEqual([
      { n: 3, s: 'a' },
      { n: -7, s: 'b' },
    ]);
  });
});
