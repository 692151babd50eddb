import { sql, type Kysely } from 'kysely';
import { APPEND_LOCK_KEY } from './20261121_0100_events.js';
import { up as createAppendFunctionV3 } from './20261121_0102_append_hint_miss.js';

/**
 * `filiere_append_events` v4: the payloads and metadata come as ONE jsonb array each (the
 * writer joins the events' canonical JSON texts with commas: no escaping) instead of text
 * arrays. A text[] parameter is sent as an array literal, which the pg driver builds by
 * escaping every quote of every payload in JavaScript (two regular expressions per element,
 * 4-10 µs an event, plus the garbage); the joined texts cost well under 1 µs. PostgreSQL parses
 * each payload once either way (a text cast to jsonb, or an element of the jsonb array), and
 * `rows from (…) with ordinality` zips the arrays as unnest did. Everything else is v3's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function filiere_append_events(text[], integer[], text[], integer[], text[], text[],
    text[], text[], text[], text[], integer[], integer[], bigint, text, text[])`.execute(db);
  await createAppendFunctionV4(db);
}

/** v4 itself (v5's down creates it again). */
export async function createAppendFunctionV4(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    create function filiere_append_events(
      p_stream_ids text[], p_versions integer[], p_types text[], p_schema_versions integer[],
      p_data jsonb, p_metadata jsonb, p_prefixes text[], p_suffixes text[],
      p_keys text[], p_results text[], p_offsets integer[], p_counts integer[],
      p_expected_head bigint, p_expected_hash text, p_hashes text[],
      out head bigint, out head_hash text
    )
    language plpgsql volatile as $fn$
    declare
      v_head bigint;
      v_hash text;
      v_hashes text[] := '{}';
      v_count integer := coalesce(cardinality(p_stream_ids), 0);
      r record;
    begin
      if jsonb_array_length(p_data) <> v_count or jsonb_array_length(p_metadata) <> v_count then
        raise exception 'filiere_append_events: % events but % payloads and % metadata',
          v_count, jsonb_array_length(p_data), jsonb_array_length(p_metadata);
      end if;
      perform pg_advisory_xact_lock(${APPEND_LOCK_KEY});
      select position, hash into v_head, v_hash from event_head where id;
      if p_hashes is not null then
        if v_head is distinct from p_expected_head or v_hash is distinct from p_expected_hash
           or cardinality(p_hashes) <> v_count then
          return; -- head and head_hash stay null: nothing appended, send the texts
        end if;
        v_hashes := p_hashes;
        if v_count > 0 then v_hash := p_hashes[v_count]; end if;
      else
        for r in select x.prefix, x.suffix, x.n
                 from unnest(p_prefixes, p_suffixes) with ordinality as x(prefix, suffix, n)
        loop
          v_hash := encode(sha256(convert_to(v_hash || r.prefix || (v_head + r.n)::text || r.suffix, 'UTF8')), 'hex');
          v_hashes := v_hashes || v_hash;
        end loop;
      end if;
      insert into events (position, stream_id, version, type, schema_version, data, metadata, hash)
      select v_head + e.n, e.stream_id, e.version, e.type, e.schema_version, e.data, e.metadata, e.hash
      from rows from (
        unnest(p_stream_ids), unnest(p_versions), unnest(p_types), unnest(p_schema_versions),
        jsonb_array_elements(p_data), jsonb_array_elements(p_metadata), unnest(v_hashes)
      ) with ordinality as e(stream_id, version, type, schema_version, data, metadata, hash, n);
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
      head := v_head + v_count;
      head_hash := v_hash;
    end
    $fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function filiere_append_events(text[], integer[], text[], integer[], jsonb, jsonb,
    text[], text[], text[], text[], integer[], integer[], bigint, text, text[])`.execute(db);
  await createAppendFunctionV3(db);
}
