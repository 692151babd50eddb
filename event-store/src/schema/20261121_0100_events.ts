import { sql, type Kysely } from 'kysely';

/**
 * The event log, its head (last position and hash, one row), the idempotency
 * table, and `filiere_append_events`, the one function that assigns positions
 * and chains hashes under a transaction-level advisory lock (see
 * docs/event-store.md for why this keeps readers from skipping late commits).
 */
export const APPEND_LOCK_KEY = 4_153_000_001;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table events (
      position bigint primary key,
      stream_id text not null,
      version integer not null check (version > 0),
      type text not null,
      schema_version integer not null default 1,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default now(),
      hash text not null,
      constraint events_stream_version_key unique (stream_id, version)
    )`.execute(db);
  await sql`
    create table event_head (
      id boolean primary key default true check (id),
      position bigint not null,
      hash text not null
    )`.execute(db);
  await sql`insert into event_head (id, position, hash) values (true, 0, repeat('0', 64))`.execute(
    db,
  );
  await sql`
    create table commands (
      key text primary key,
      result jsonb not null,
      positions jsonb not null,
      recorded_at timestamptz not null default now()
    )`.execute(db);
  await createAppendFunctionV1(db);
}

/**
 * Statements inside a VOLATILE plpgsql function take a fresh snapshot each, so
 * the head read after the lock sees the previous holder's commit.
 */
export async function createAppendFunctionV1(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    create function filiere_append_events(
      p_stream_ids text[], p_versions integer[], p_types text[], p_schema_versions integer[],
      p_data text[], p_metadata text[], p_prefixes text[], p_suffixes text[],
      p_keys text[], p_results text[], p_offsets integer[], p_counts integer[]
    ) returns bigint
    language plpgsql volatile as $fn$
    declare
      v_head bigint;
      v_hash text;
      v_hashes text[] := '{}';
      v_count integer := coalesce(cardinality(p_stream_ids), 0);
      r record;
    begin
      perform pg_advisory_xact_lock(${APPEND_LOCK_KEY});
      select position, hash into v_head, v_hash from event_head where id;
      for r in select x.prefix, x.suffix, x.n
               from unnest(p_prefixes, p_suffixes) with ordinality as x(prefix, suffix, n)
      loop
        v_hash := encode(sha256(convert_to(v_hash || r.prefix || (v_head + r.n)::text || r.suffix, 'UTF8')), 'hex');
        v_hashes := v_hashes || v_hash;
      end loop;
      insert into events (position, stream_id, version, type, schema_version, data, metadata, hash)
      select v_head + e.n, e.stream_id, e.version, e.type, e.schema_version, e.data::jsonb, e.metadata::jsonb, e.hash
      from unnest(p_stream_ids, p_versions, p_types, p_schema_versions, p_data, p_metadata, v_hashes)
        with ordinality as e(stream_id, version, type, schema_version, data, metadata, hash, n);
      if coalesce(cardinality(p_keys), 0) > 0 then
        insert into commands (key, result, positions)
        select c.key, c.result::jsonb,
          coalesce((select jsonb_agg(p) from generate_series(v_head + c.off + 1, v_head + c.off + c.cnt) p), '[]'::jsonb)
        from unnest(p_keys, p_results, p_offsets, p_counts) as c(key, result, off, cnt);
      end if;
      if v_count > 0 then
        update event_head set position = v_head + v_count, hash = v_hash where id;
        perform pg_notify('filiere_events', (v_head + v_count)::text);
      end if;
      return v_head;
    end
    $fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists filiere_append_events`.execute(db);
  await sql`drop table if exists commands`.execute(db);
  await sql`drop table if exists event_head`.execute(db);
  await sql`drop table if exists events`.execute(db);
}
