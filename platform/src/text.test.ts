import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './testing/database.js';
import {
  isStorableText,
  storableInput,
  storableString,
  UNSTORABLE_TEXT_MESSAGE,
  unstorableTextPaths,
} from './text.js';
import type { PlatformTables } from './db.js';

describe('text PostgreSQL can store', () => {
  it('refuses NUL and lone surrogates, keeps pairs and every other character', () => {
    for (const bad of [
      '\u0000',
      'a\u0000b',
      '\uD800',
      'x\uD800y',
      '\uDBFF',
      '\uDC00',
      'a\uDFFFb',
    ]) {
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(isStorableText('\uDC00\uD800')).toBe(false); // a low half before a high one: no pair
    for (const good of ['', 'Récolte', '🌾', '\uD83C\uDF3E', '\u0001\u001f', '\uFFFF\uFFFE', 'é'])
      expect(isStorableText(good), JSON.stringify(good)).toBe(true);
  });

  it('storableString chains like z.string() and answers in French', () => {
    const reason = storableString().trim().min(1).max(10);
    expect(reason.parse('  ok  ')).toBe('ok');
    const result = reason.safeParse('ok\u0000');
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual([UNSTORABLE_TEXT_MESSAGE]);
    expect(storableString().safeParse('\uD800').success).toBe(false);
  });

  it('finds every unstorable string and key of a value, however deep', () => {
    expect(
      unstorableTextPaths({
        ok: 'fine',
        reason: 'a\u0000',
        list: ['x', '\uD800', { inner: ['\uDC00'] }],
        'key\u0000': 'value',
        n: 5,
      }).sort(),
    ).toEqual([['key\u0000'], ['list', 1], ['list', 2, 'inner', 0], ['reason']].sort());
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unstorableTextPaths(deep)[0]).toHaveLength(200_000);
    expect(unstorableTextPaths(Array.from({ length: 100 }, () => '\u0000'))).toHaveLength(20);
  });

  it('storableInput refuses before the schema it is piped into', () => {
    const schema = storableInput.pipe(storableString().optional());
    expect(schema.safeParse(undefined).success).toBe(true);
    const { error } = storableInput.safeParse({ a: { b: '\u0000' } });
    expect(error!.issues).toMatchObject([{ path: ['a', 'b'], message: UNSTORABLE_TEXT_MESSAGE }]);
    const keyed = storableInput.safeParse({ a: { 'k\u0000\uD800': 1 } });
    expect(keyed.error!.issues).toMatchObject([{ path: ['a', 'k\uFFFD\uFFFD'] }]);
  });
});

describe('isStorableText agrees with PostgreSQL', () => {
  const database = useTestDatabase<PlatformTables>();
  const store = (value: string) =>
    sql`select ${value}::text as t, ${JSON.stringify({ value })}::jsonb as j`.execute(database.db);

  it('stores every other code point, U+0001 to U+10FFFF, in text and jsonb', async () => {
    let all = '';
    for (let cp = 1; cp <= 0x10ffff; cp++) {
      if (cp < 0xd800 || cp > 0xdfff) all += String.fromCodePoint(cp);
    }
    expect(isStorableText(all)).toBe(true);
    const { rows } = await store(all);
    expect(rows[0]).toEqual({ t: all, j: { value: all } });
  });

  it('refuses exactly what isStorableText refuses', async () => {
    for (const bad of ['a\u0000b', '\uD800', 'x\uDBFFy', '\uDC00', '\uDFFF\uD800']) {
      expect(isStorableText(bad)).toBe(false);
      // jsonb refuses the escape; text gets NUL as a byte (refused) or a lone surrogate as U+FFFD.
      await expect(
        sql`select ${JSON.stringify({ bad })}::jsonb`.execute(database.db),
      ).rejects.toMatchObject({ code: expect.stringMatching(/^22/) });
    }
    await expect(store('a\u0000b')).rejects.toMatchObject({ code: expect.stringMatching(/^22/) });
  });
});
