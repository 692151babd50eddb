import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../database.js';
import { bigints, ints, numberArray, textArray, texts, unnest } from './unnest.js';

describe('array literals of the projectors’ multi-row writes (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();

  it('PostgreSQL reads back every value, quotes, backslashes, braces, commas, NULL and empty included', async () => {
    const strings = [
      'plain',
      '',
      'NULL',
      null,
      'a,b',
      '{x}',
      'say "hi"',
      'back\\slash\\',
      '\\"',
      ' spaced ',
      'été – 𝄞',
      '00000000-0000-4000-8000-000000000001',
    ];
    const numbers = [0, -1, 42, 2 ** 53 - 1, -(2 ** 53 - 1)];
    const { rows } = await sql<{
      s: string | null;
    }>`select s from (${unnest(texts(strings))}) as t(s)`.execute(testDb.db);
    expect(rows.map((r) => r.s)).toEqual(strings);
    const big = await sql<{
      n: string;
    }>`select n::text as n from (${unnest(bigints(numbers))}) as t(n)`.execute(testDb.db);
    expect(big.rows.map((r) => Number(r.n))).toEqual(numbers);
    const small = await sql<{
      n: number;
    }>`select n from (${unnest(ints([3, -7]))}) as t(n)`.execute(testDb.db);
    expect(small.rows.map((r) => r.n)).toEqual([3, -7]);
    // The same literal pg builds for a JS array (its own arrayString), element for element.
    const viaPg = await sql<{ s: string | null }>`select unnest(${strings}::text[]) as s`.execute(
      testDb.db,
    );
    expect(viaPg.rows.map((r) => r.s)).toEqual(strings);
    expect(textArray([])).toBe('{}');
    expect(numberArray([1, null, 2])).toBe('{1,NULL,2}');
  });
});
