import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore, verifyLog, type EventStoreTables } from '@filiere/event-store';
import { createLogger, narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catchUp, type PushMessage } from '@filiere/projections';
import { bearer, seedOrganization, seedUser } from '../../identity/test-support.js';
import { ROLE_CODES, type RoleCode } from '../../kernel/roles.js';
import { allowedBy, operationsOf } from '../../security/route-table.js';
import { buildTestApp } from '../../test-app.js';
import {
  RecordingLedger,
  walletCatalogue,
  walletDecoder,
} from '../../wallet/read-model/test-support.js';
import { balanceHistoryProjector } from '../../wallet/history/projector.js';
import { AUDIT_INTEGRITY_PUSH, IntegrityVerifier, type VerifierTables } from './verifier.js';
import type { Database } from '../../database.js';

/**
 * Commands a signed-in user runs on its own account only (sign-out, its own password,
 * e-mail, profile): open to every role by design, the auditor included. Nothing else that
 * writes may admit ROLE_ACCOUNTING.
 */
const OWN_ACCOUNT_COMMANDS = new Set<string>([
  'PATCH /api/users/me/firstname',
  'PATCH /api/users/me/lastname',
  'PATCH /api/users/me/email',
  'PATCH /api/users/me/phone',
  'PATCH /api/users/me/momoAccountNumber',
  'PATCH /api/users/me/bankAccountNumber',
  'POST /api/users/me/password',
  // Its guard admits every signed-in user; identity's field rules let the auditor change
  // itself only (checked below).
  'PATCH /api/users/{id}',
]);

describe('the auditor: integrity verification, point-in-time reads, no command', () => {
  const t = useTestDatabase<Database>();
  let app: FastifyInstance;
  const pushes: PushMessage[] = [];
  let verifier: IntegrityVerifier;
  let auditor: { id: string };
  let superAdmin: { id: string };
  let grower: { id: string };
  const wallets: Record<string, string> = {};

  const walletOf = async (id: string) =>
    String(
      (
        await t.db
          .selectFrom('users')
          .select('wallet_id')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).wallet_id,
    );

  /** Appends the ledger's decisions, each in its own transaction, and projects the history. */
  async function append(ledger: RecordingLedger) {
    await ledger.flush(new EventStore(t.db, walletCatalogue));
    await catchUp(t.db, balanceHistoryProjector, { decode: walletDecoder });
  }

  beforeAll(async () => {
    app = await buildTestApp(t.db);
    await app.ready();
    auditor = await seedUser(t.db, 'ROLE_ACCOUNTING');
    superAdmin = await seedUser(t.db, 'ROLE_SUPER_ADMIN');
    grower = await seedUser(t.db, 'ROLE_GROWER');
    for (const [name, u] of Object.entries({ auditor, superAdmin, grower })) {
      wallets[name] = await walletOf(u.id);
    }
    verifier = new IntegrityVerifier(
      narrowDb<VerifierTables>()(t.db),
      async (messages) => void pushes.push(...messages),
      createLogger('silent', false),
      3,
    );
  });
  afterAll(async () => app?.close());

  it('no command route admits ROLE_ACCOUNTING (the route table the authorization matrix checks)', () => {
    const open = operationsOf(app)
      .filter((op) => op.method !== 'GET' && op.path !== '/api/ws')
      .filter((op) => op.access !== 'public' && allowedBy(op.access, 'ROLE_ACCOUNTING'))
      .map((op) => op.name)
      .filter((name) => !OWN_ACCOUNT_COMMANDS.has(name));
    expect(open).toEqual([]);
  });

  it('the auditor changes no one else, moves no money; an organisation’s accountant is not the auditor', async () => {
    const headers = bearer(app, auditor, 'ROLE_ACCOUNTING');
    const patch = await app.inject({
      method: 'PATCH',
      url: `/api/users/${grower.id}`,
      headers,
      payload: { firstname: 'Audité' },
    });
    expect(patch.statusCode).toBe(403);
    const transfer = await app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: { ...headers, 'idempotency-key': 'aud-transfer-1' },
      payload: { source: wallets.auditor, destination: wallets.grower, amount: 1, reason: 'Essai' },
    });
    expect(transfer.statusCode).toBe(403);
    const organizationId = await seedOrganization(t.db, 'Comptables SARL');
    const staff = await seedUser(t.db, 'ROLE_ACCOUNTING', { organizationId });
    const staffHeaders = bearer(app, staff, 'ROLE_ACCOUNTING');
    const panel = await app.inject({
      method: 'GET',
      url: '/api/audit/integrity',
      headers: staffHeaders,
    });
    expect(panel.statusCode).toBe(403);
    const other = await app.inject({
      method: 'GET',
      url: `/api/wallet/${wallets.grower}/balance?at=2026-01-01T00:00:00Z`,
      headers: staffHeaders,
    });
    expect(other.statusCode).toBe(403);
    const member = await seedUser(t.db, 'ROLE_SECRETARY', { organizationId });
    const mine = await app.inject({
      method: 'GET',
      url: `/api/wallet/${await walletOf(member.id)}/balance?at=2026-01-01T00:00:00Z`,
      headers: staffHeaders,
    });
    expect(mine.statusCode).toBe(200);
    const list = await app.inject({
      method: 'GET',
      url: '/api/wallet/accounts?limit=100',
      headers: staffHeaders,
    });
    expect(
      list
        .json()
        .data.map((u: { userId: string }) => u.userId)
        .sort(),
    ).toEqual([staff.id, member.id].sort());
    // And its reads are there: every wallet's history and the integrity panel.
    const reads = operationsOf(app)
      .filter((op) => op.method === 'GET' && allowedBy(op.access, 'ROLE_ACCOUNTING'))
      .map((op) => op.name);
    expect(reads).toEqual(
      expect.arrayContaining([
        'GET /api/audit/integrity',
        'GET /api/wallet/accounts',
        'GET /api/wallet/{walletId}/balance',
        'GET /api/wallet/{walletId}/statement',
        'GET /api/wallet/{walletId}/statement.xlsx',
      ]),
    );
  });

  it('balance at an instant: the owner and the auditor read it, another user gets 403, bad input 400', async () => {
    const ledger = new RecordingLedger();
    const owner = ledger.open(wallets.grower!, grower.id, 'ROLE_GROWER');
    ledger.fund(owner, 12_000, 'AUD-1');
    await append(ledger);
    const { rows } = await sql<{ at: string }>`
      select to_char(max(recorded_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
      from events where stream_id = ${`wallet-${wallets.grower}`}`.execute(t.db);
    const url = `/api/wallet/${wallets.grower}/balance?at=${rows[0]!.at}`;
    for (const [who, user, role] of [
      ['owner', grower, 'ROLE_GROWER'],
      ['auditor', auditor, 'ROLE_ACCOUNTING'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url, headers: bearer(app, user, role) });
      expect(res.statusCode, who).toBe(200);
      expect(res.json()).toMatchObject({ balance: 12_000, availableBalance: 12_000 });
    }
    const before = await app.inject({
      method: 'GET',
      url: `/api/wallet/${wallets.grower}/balance?at=2020-01-01T00:00:00Z`,
      headers: bearer(app, auditor, 'ROLE_ACCOUNTING'),
    });
    expect(before.json()).toMatchObject({ balance: 0, availableBalance: 0, position: null });
    const other = await seedUser(t.db, 'ROLE_GROWER');
    const refused = await app.inject({
      method: 'GET',
      url,
      headers: bearer(app, other, 'ROLE_GROWER'),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Ce portefeuille ne vous appartient pas');
    const bad = await app.inject({
      method: 'GET',
      url: `/api/wallet/${wallets.grower}/balance?at=hier`,
      headers: bearer(app, auditor, 'ROLE_ACCOUNTING'),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Instant invalide');
    const unknown = await app.inject({
      method: 'GET',
      url: `/api/wallet/00000000-0000-4000-8000-000000000000/balance?at=2026-01-01T00:00:00Z`,
      headers: bearer(app, auditor, 'ROLE_ACCOUNTING'),
    });
    expect(unknown.statusCode).toBe(404);
    const day = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
    const statement = await app.inject({
      method: 'GET',
      url: `/api/wallet/${wallets.grower}/statement?from=${day}&to=${day}`,
      headers: bearer(app, auditor, 'ROLE_ACCOUNTING'),
    });
    expect(statement.statusCode).toBe(200);
    expect(statement.json()).toMatchObject({
      opening: { balance: 0 },
      closing: { balance: 12_000 },
      credits: 12_000,
    });
    const xlsx = await app.inject({
      method: 'GET',
      url: `/api/wallet/${wallets.grower}/statement.xlsx?from=${day}&to=${day}`,
      headers: bearer(app, auditor, 'ROLE_ACCOUNTING'),
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('the loop sweeps one page per interval, not on each run; an explicit run sweeps', async () => {
    const sweepState = async () =>
      await t.db
        .selectFrom('audit_integrity')
        .select(['sweep_position', 'sweeps'])
        .executeTakeFirstOrThrow();
    const loopVerifier = new IntegrityVerifier(
      narrowDb<VerifierTables>()(t.db),
      async (messages) => void pushes.push(...messages),
      createLogger('silent', false),
      3,
      3_600_000,
    );
    // The loop's runs reach the head; the first one was the interval's sweep.
    while ((await loopVerifier.runDue()) > 0);
    await loopVerifier.runDue();
    const before = await sweepState();
    // More events and more runs within the interval: the tail moves, the sweep does not.
    const ledger = new RecordingLedger();
    ledger.fund(ledger.open(wallets.superAdmin!, superAdmin.id), 700, 'AUD-SWEEP');
    await append(ledger);
    for (let i = 0; i < 5; i++) await loopVerifier.runDue();
    expect(await sweepState()).toEqual(before);
    const head = Number(
      (await sql<{ p: string }>`select position::text as p from event_head`.execute(t.db)).rows[0]!
        .p,
    );
    expect(
      Number(
        (await t.db.selectFrom('audit_integrity').select('last_position').executeTakeFirstOrThrow())
          .last_position,
      ),
    ).toBe(head);
    // A run asked for outside the loop re-checks a page.
    await loopVerifier.verifyOnce();
    expect(await sweepState()).not.toEqual(before);
  });

  it('verifies incrementally, then finds an event changed below the verified position: BROKEN, pushed to super admins and accountants', async () => {
    const panel = async () =>
      (
        await app.inject({
          method: 'GET',
          url: '/api/audit/integrity',
          headers: bearer(app, auditor, 'ROLE_ACCOUNTING'),
        })
      ).json();
    // Page of 3: the tail advances 3 events per run; the loop's runs reach the head.
    while ((await verifier.runDue()) > 0);
    const head = Number(
      (await sql<{ p: string }>`select position::text as p from event_head`.execute(t.db)).rows[0]!
        .p,
    );
    expect(await panel()).toMatchObject({ status: 'OK', lastVerifiedPosition: head });
    expect((await verifyLog(t.db as unknown as Kysely<EventStoreTables>)).ok).toBe(true);
    // New events: only they are hashed at the tail.
    const ledger = new RecordingLedger();
    ledger.fund(ledger.open(wallets.auditor!, auditor.id), 500, 'AUD-2');
    await append(ledger);
    const run = await verifier.verifyOnce();
    expect(run).toMatchObject({ status: 'OK', verified: 3 });
    // Sweeps re-check every verified event; then an event is changed in place, by SQL.
    for (let i = 0; i < 20; i++) await verifier.verifyOnce();
    expect((await panel()).sweeps).toBeGreaterThan(0);
    const grant = await sql<{ p: string }>`
      select position::text as p from events
      where stream_id = ${`supply-AUD-1`} and type = 'SupplyCreditValidated' limit 1`.execute(t.db);
    const tampered = Number(grant.rows[0]?.p ?? 2);
    await sql`update events set data = jsonb_set(data, '{amount}', '999999')
      where position = ${tampered}`.execute(t.db);
    let status = 'OK';
    for (let i = 0; i < 20 && status === 'OK'; i++) {
      status = (await verifier.verifyOnce())?.status ?? 'BROKEN';
    }
    expect(await panel()).toMatchObject({ status: 'BROKEN', brokenAt: tampered });
    const push = pushes.find((p) => p.type === AUDIT_INTEGRITY_PUSH);
    expect(push?.data).toEqual({ status: 'BROKEN', brokenAt: tampered });
    expect(push?.userIds).toEqual(expect.arrayContaining([auditor.id, superAdmin.id]));
    expect(push?.userIds).not.toContain(grower.id);
    // The grower never reads the panel.
    const refused = await app.inject({
      method: 'GET',
      url: '/api/audit/integrity',
      headers: bearer(app, grower, 'ROLE_GROWER'),
    });
    expect(refused.statusCode).toBe(403);
  });
});

void ROLE_CODES;
export type { RoleCode };
