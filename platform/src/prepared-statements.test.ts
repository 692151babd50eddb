import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type PlatformTables } from './db.js';
import { MAX_PER_CONNECTION, StatementNames } from './prepared-statements.js';
import { useTestDatabase } from './testing/index.js';

/** The statements this connection's backend prepared, by text (one connection: max 1). */
async function prepared(db: Kysely<unknown>): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; statement: string }>`
    select name, statement from pg_prepared_statements`.execute(db);
  return new Map(rows.map((r) => [r.statement, r.name]));
}

describe('named prepared statements', () => {
  const database = useTestDatabase<PlatformTables>();
  const dbs: Kysely<unknown>[] = [];
  const open = (prepare?: boolean) => {
    const db = createDb<unknown>(database.url, {
      max: 1,
      ...(prepare === false ? { prepare } : {}),
    });
    dbs.push(db);
    return db;
  };
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.destroy()));
  });

  it('prepares a text with parameters from its second call on, once per connection', async () => {
    const db = open();
    const text = 'select $1::int + 1 as n';
    const add = async (n: number) =>
      (await sql<{ n: number }>`select ${n}::int + 1 as n`.execute(db)).rows[0]!.n;
    expect(await add(1)).toBe(2);
    expect((await prepared(db)).has(text)).toBe(false);
    expect(await add(2)).toBe(3);
    expect(await add(3)).toBe(4);
    const names = await prepared(db);
    expect(names.get(text)).toMatch(/^p[0-9a-f]{40}$/);
    // A query without parameters keeps the simple protocol: never prepared.
    await sql`select 42 as n`.execute(db);
    await sql`select 42 as n`.execute(db);
    expect((await prepared(db)).has('select 42 as n')).toBe(false);
  });

  it('sees a table PostgreSQL changed under a prepared statement, and a new result shape', async () => {
    const db = open();
    await sql`create table prepared_probe (id int primary key, label text)`.execute(db);
    await sql`insert into prepared_probe values (1, 'un')`.execute(db);
    const read = async (executor: Kysely<unknown> = db) =>
      (
        await sql<Record<string, unknown>>`select * from prepared_probe where id = ${1}`.execute(
          executor,
        )
      ).rows[0];
    expect(await read()).toEqual({ id: 1, label: 'un' });
    expect(await read()).toEqual({ id: 1, label: 'un' });
    expect((await prepared(db)).has('select * from prepared_probe where id = $1')).toBe(true);
    // Same columns, other rows and an index: PostgreSQL re-plans the prepared statement.
    await sql`create index prepared_probe_label on prepared_probe (label)`.execute(db);
    await sql`update prepared_probe set label = 'one'`.execute(db);
    expect(await read()).toEqual({ id: 1, label: 'one' });
    // A new column changes `select *`'s result, which PostgreSQL refuses to a prepared
    // statement: outside a transaction the call is sent again, prepared anew, and succeeds.
    await sql`alter table prepared_probe add column note text`.execute(db);
    expect(await read()).toEqual({ id: 1, label: 'one', note: null });
    // In a transaction the refusal fails it (nothing can be sent again in an aborted
    // transaction); the transaction's retry reads the new shape.
    await sql`alter table prepared_probe add column weight int`.execute(db);
    await expect(db.transaction().execute((trx) => read(trx))).rejects.toThrow(
      /cached plan must not change result type/,
    );
    expect(await db.transaction().execute((trx) => read(trx))).toEqual({
      id: 1,
      label: 'one',
      note: null,
      weight: null,
    });
  });

  it('sends unnamed statements only with prepare: false', async () => {
    const db = open(false);
    for (let i = 0; i < 3; i++) await sql`select ${i}::int as n`.execute(db);
    expect((await prepared(db)).size).toBe(0);
  });

  it('names a text from its second use in the process', () => {
    const names = new StatementNames();
    expect(names.nameOf('select $1')).toBeUndefined();
    const name = names.nameOf('select $1');
    expect(name).toMatch(/^p[0-9a-f]{40}$/);
    expect(names.nameOf('select $1')).toBe(name);
    expect(names.nameOf('select $2')).toBeUndefined();
  });

  it('prepares at most MAX_PER_CONNECTION statements on a connection, the others unnamed', async () => {
    const db = open();
    const texts = Array.from({ length: MAX_PER_CONNECTION + 5 }, (_, i) => i);
    for (const i of texts) {
      for (let twice = 0; twice < 2; twice++) {
        await sql`select ${i}::int as n, ${sql.lit(i)} as i`.execute(db);
      }
    }
    expect((await prepared(db)).size).toBe(MAX_PER_CONNECTION);
    // A statement it prepared is still used; the next ones work, unnamed.
    expect(
      (await sql<{ n: number }>`select ${7}::int as n, ${sql.lit(0)} as i`.execute(db)).rows,
    ).toEqual([{ n: 7, i: 0 }]);
    expect(
      (
        await sql<{
          n: number;
        }>`select ${7}::int as n, ${sql.lit(MAX_PER_CONNECTION + 4)} as i`.execute(db)
      ).rows,
    ).toEqual([{ n: 7, i: MAX_PER_CONNECTION + 4 }]);
  });
});
