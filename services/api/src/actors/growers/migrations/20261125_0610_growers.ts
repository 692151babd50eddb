import { sql, type Kysely } from 'kysely';

/**
 * Growers (producteurs) and their plots (parcelles). A grower is an identity user
 * (ROLE_GROWER, created through identity's members face, with its wallet) plus this row:
 * its human reference `PRD-000001` (a sequence), the cluster that is the reach of the staff
 * who see it, its cooperative (an identity organisation of type COOPERATIVE, or none), its
 * address as location codes, a contact person, who registered it, and a soft deactivation.
 *
 * The list's search (name, phone, reference) reads one column, `search`: the reference, last
 * name, first name and phone, lower-cased and without accents (`growers_fold`), with a
 * trigram index so that `%q%` is an index scan at 100,000 growers. It is kept by triggers:
 * on the grower's insert, and on any change of its user's names or phone (whoever makes it:
 * these routes, identity's user administration), so it never goes stale.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create sequence grower_reference_seq`.execute(db);
  await sql`
    create function growers_fold(value text) returns text
    language sql immutable parallel safe
    as $$ select lower(translate(coalesce(value, ''),
      'ÀÂÄÁÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÇÑàâäáãéèêëíìîïóòôöõúùûüçñ',
      'AAAAAEEEEIIIIOOOOOUUUUCNaaaaaeeeeiiiiooooouuuucn')) $$`.execute(db);
  await db.schema
    .createTable('growers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('reference', 'text', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`'PRD-' || lpad(nextval('grower_reference_seq')::text, 6, '0')`),
    )
    .addColumn('user_id', 'uuid', (c) => c.notNull().unique().references('users.id'))
    .addColumn('cluster_id', 'uuid', (c) => c.notNull().references('clusters.id'))
    .addColumn('cooperative_id', 'uuid', (c) => c.references('organizations.id'))
    .addColumn('sub_cooperative', 'text')
    .addColumn('address', 'text')
    .addColumn('department_code', 'text', (c) => c.notNull())
    .addColumn('commune_code', 'text', (c) => c.notNull())
    .addColumn('arrondissement_code', 'text', (c) => c.notNull())
    .addColumn('village_code', 'text', (c) => c.notNull())
    .addColumn('contact_fullname', 'text')
    .addColumn('contact_phone', 'text')
    .addColumn('search', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deactivated_at', 'timestamptz')
    .execute();

  // The list pages newest first within a reach (cluster, cooperative, or all), active or not.
  await sql`create index growers_cluster_page_idx on growers
    (cluster_id, (deactivated_at is null), created_at desc, id desc)`.execute(db);
  await sql`create index growers_cooperative_page_idx on growers
    (cooperative_id, (deactivated_at is null), created_at desc, id desc)
    where cooperative_id is not null`.execute(db);
  await sql`create index growers_page_idx on growers
    ((deactivated_at is null), created_at desc, id desc)`.execute(db);
  await sql`create index growers_search_trgm_idx on growers using gin (search gin_trgm_ops)`.execute(
    db,
  );

  await sql`
    create function growers_search_of(grower growers) returns text
    language sql stable
    as $$ select growers_fold(concat_ws(' ', grower.reference, u.lastname, u.firstname,
      replace(coalesce(u.phone, ''), '+', ''))) from users u where u.id = grower.user_id $$`.execute(
    db,
  );
  await sql`
    create function growers_search_on_write() returns trigger
    language plpgsql
    as $$ begin
      new.search := coalesce(growers_search_of(new), '');
      return new;
    end $$`.execute(db);
  await sql`
    create trigger growers_search_on_write before insert or update of user_id, reference
    on growers for each row execute function growers_search_on_write()`.execute(db);
  await sql`
    create function growers_search_on_user() returns trigger
    language plpgsql
    as $$ begin
      update growers g set search = coalesce(growers_search_of(g), '') where g.user_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger growers_search_on_user after update of firstname, lastname, phone
    on users for each row
    when (old.firstname is distinct from new.firstname or old.lastname is distinct from new.lastname
      or old.phone is distinct from new.phone)
    execute function growers_search_on_user()`.execute(db);

  await db.schema
    .createTable('plots')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('grower_id', 'uuid', (c) => c.notNull().references('growers.id'))
    // The order plots were added in (one registration adds several at the same now()).
    .addColumn('seq', 'bigint', (c) => c.notNull().generatedByDefaultAsIdentity())
    .addColumn('product_type', 'text', (c) =>
      c.notNull().check(sql`product_type in ('CAYENNE_LISSE', 'PAIN_DE_SUCRE')`),
    )
    .addColumn('department_code', 'text', (c) => c.notNull())
    .addColumn('commune_code', 'text', (c) => c.notNull())
    .addColumn('arrondissement_code', 'text', (c) => c.notNull())
    .addColumn('village_code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('latitude', sql`numeric(10, 7)`, (c) => c.check(sql`latitude between -90 and 90`))
    .addColumn('longitude', sql`numeric(10, 7)`, (c) =>
      c.check(sql`longitude between -180 and 180`),
    )
    .addColumn('planting_date', 'date')
    .addColumn('tif_date', 'date')
    .addColumn('area_sown', sql`numeric(12, 4)`, (c) => c.notNull().check(sql`area_sown > 0`))
    .addColumn('estimated_production', sql`numeric(14, 3)`, (c) =>
      c.check(sql`estimated_production >= 0`),
    )
    .addColumn('created_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('plots_grower_idx')
    .on('plots')
    .columns(['grower_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('plots').execute();
  await sql`drop trigger growers_search_on_user on users`.execute(db);
  await sql`drop function growers_search_on_user()`.execute(db);
  await sql`drop function growers_search_of(growers)`.execute(db);
  await db.schema.dropTable('growers').execute();
  await sql`drop function growers_search_on_write()`.execute(db);
  await sql`drop function growers_fold(text)`.execute(db);
  await sql`drop sequence grower_reference_seq`.execute(db);
}
