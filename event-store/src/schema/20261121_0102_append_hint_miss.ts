import { sql, type Kysely } from 'kysely';
import { APPEND_LOCK_KEY } from './20261121_0100_events.js';
import { up as createAppendFunctionV2 } from './20261121_0101_append_with_hashes.js';

/**
 * `filiere_append_events` v3: when the writer sends its own hashes it sends
 * no canonical texts; if the head moved meanwhile the function appends
 * nothing and returns a null head, and the writer sends the texts instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    create or replace function filiere_append_events(
      p_stream_ids text[], p_versions integer[], p_types text[], p_schema_versions integer[],
      p_data text[], p_metadata text[], p_prefixes text[], p_suffixes text[],
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
      head := v_head + v_count;
      head_hash := v_hash;
    end
    $fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await createAppendFunctionV2(db);
}
