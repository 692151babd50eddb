import { sql, type Kysely } from 'kysely';
import { territorialRows } from '../tree.js';

/**
 * Benin's departments, communes, arrondissements and villages (data/benin-territorial.json),
 * as four reference tables each pointing at its parent. One INSERT … SELECT per level from
 * one jsonb parameter (a few milliseconds: this runs on every fresh database, each test's
 * template included); ON CONFLICT DO NOTHING makes a second run harmless.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('departments')
    .ifNotExists()
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('communes')
    .ifNotExists()
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('department_code', 'text', (c) => c.notNull().references('departments.code'))
    .execute();
  await db.schema
    .createTable('arrondissements')
    .ifNotExists()
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('commune_code', 'text', (c) => c.notNull().references('communes.code'))
    .execute();
  await db.schema
    .createTable('villages')
    .ifNotExists()
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('arrondissement_code', 'text', (c) => c.notNull().references('arrondissements.code'))
    .addColumn('rank', 'integer', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS communes_department_idx ON communes (department_code)`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS arrondissements_commune_idx ON arrondissements (commune_code)`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS villages_arrondissement_idx ON villages (arrondissement_code)`.execute(
    db,
  );

  const rows = territorialRows();
  const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
  await sql`
    INSERT INTO departments (code, name)
    SELECT code, name FROM jsonb_to_recordset(${json(rows.departments)}) AS r(code text, name text)
    ON CONFLICT (code) DO NOTHING`.execute(db);
  await sql`
    INSERT INTO communes (code, name, department_code)
    SELECT code, name, department_code
      FROM jsonb_to_recordset(${json(rows.communes)}) AS r(code text, name text, department_code text)
    ON CONFLICT (code) DO NOTHING`.execute(db);
  await sql`
    INSERT INTO arrondissements (code, name, commune_code)
    SELECT code, name, commune_code
      FROM jsonb_to_recordset(${json(rows.arrondissements)}) AS r(code text, name text, commune_code text)
    ON CONFLICT (code) DO NOTHING`.execute(db);
  await sql`
    INSERT INTO villages (code, name, arrondissement_code, rank)
    SELECT code, name, arrondissement_code, rank
      FROM jsonb_to_recordset(${json(rows.villages)})
        AS r(code text, name text, arrondissement_code text, rank integer)
    ON CONFLICT (code) DO NOTHING`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['villages', 'arrondissements', 'communes', 'departments']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
