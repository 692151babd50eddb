import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { PushMessage } from '@filiere/projections';
import type { StartedJob } from '../../kernel/module.js';
import { EventStore } from '@filiere/event-store';
import { seedUser } from '../../identity/test-support.js';
import { RecordingLedger, walletCatalogue } from '../../wallet/read-model/test-support.js';
import { startAuditThread } from './thread-host.js';
import { AUDIT_INTEGRITY_PUSH } from './verifier.js';
import type { Database } from '../../database.js';

/**
 * The verification runs on a thread of its own (its own pool and event loop): it verifies the
 * log as the in-process loop does, its pushes reach the host's publisher, and closing it stops
 * the thread (its connections leave the server).
 */
describe('the integrity verification on its own thread', () => {
  const t = useTestDatabase<Database>();
  let job: StartedJob | undefined;
  const pushes: PushMessage[] = [];
  const start = () =>
    (job = startAuditThread({
      databaseUrl: t.url,
      logger: createLogger('silent', false),
      publish: async (messages) => void pushes.push(...messages),
      nice: 0,
    }));
  const state = async () =>
    (
      await sql<{ status: string; last_position: string; broken_at: number | null }>`
        select status, last_position, broken_at from audit_integrity`.execute(t.db)
    ).rows[0]!;
  const auditConnections = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from pg_stat_activity
          where application_name = 'filiere-audit' and datname = current_database()`.execute(t.db)
      ).rows[0]!.n,
    );
  const head = async () =>
    Number(
      (await sql<{ p: string | null }>`select max(position) as p from events`.execute(t.db))
        .rows[0]!.p ?? 0,
    );
  /** A super admin (the push's reader) whose wallet is opened and funded: events to verify. */
  const appendSome = async (reference: string) => {
    const admin = await seedUser(t.db, 'ROLE_SUPER_ADMIN');
    const { wallet_id } = await t.db
      .selectFrom('users')
      .select('wallet_id')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    const ledger = new RecordingLedger();
    ledger.fund(ledger.open(String(wallet_id), admin.id), 500, reference);
    await ledger.flush(new EventStore(t.db, walletCatalogue));
  };
  afterEach(async () => {
    await job?.close();
    job = undefined;
  });

  it('verifies the log up to its head, and closing stops it', async () => {
    await appendSome('AUD-T1');
    const last = await head();
    expect(last).toBeGreaterThan(0);
    start();
    await vi.waitFor(async () => expect(Number((await state()).last_position)).toBe(last), {
      timeout: 30_000,
      interval: 100,
    });
    expect((await state()).status).toBe('OK');
    expect(await auditConnections()).toBeGreaterThan(0);
    await job!.close();
    job = undefined;
    await vi.waitFor(async () => expect(await auditConnections()).toBe(0), { timeout: 10_000 });
  });

  it('a broken chain it finds is published through the host', async () => {
    await appendSome('AUD-T2');
    const tampered = await head();
    await sql`update events set data = jsonb_set(data, '{tampered}', 'true')
      where position = ${tampered}`.execute(t.db);
    // From where the last test left it: the new events are verified at the tail.
    start();
    await vi.waitFor(
      () => expect(pushes.find((p) => p.type === AUDIT_INTEGRITY_PUSH)).toBeDefined(),
      { timeout: 30_000, interval: 100 },
    );
    expect(await state()).toMatchObject({ status: 'BROKEN', broken_at: tampered });
    expect(pushes.find((p) => p.type === AUDIT_INTEGRITY_PUSH)!.data).toEqual({
      status: 'BROKEN',
      brokenAt: tampered,
    });
  });
});
