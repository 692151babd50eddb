import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLog } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp, checkProjector } from '@filiere/projections';
import type { Database } from '../database.js';
import { product } from '../modules.js';
import { buildTestApp } from '../test-app.js';
import { fund, walletUser, withKey, type TestUser } from '../wallet/http/commands/test-support.js';
import { DEFAULT_WINDOW_MS, beninDay, nextDay } from './domain/index.js';
import { DailyCloseRunner } from './jobs/daily-close.js';
import type { ReconciliationTables } from './tables.js';

const decode = catalogueDecoder(product.catalogue);

interface Entry {
  ref: string;
  amount: number;
  at: string;
  ours: string | null;
  direction?: 'CRDT' | 'DBIT';
}

/** A CAMT.053 statement of the supply account with these booked entries. */
const camt = (entries: Entry[]) => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>STMT</MsgId><CreDtTm>2026-12-07T06:00:00+01:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>STMT-1</Id>
      <Acct><Id><Othr><Id>BJ0610100100000000000001</Id></Othr></Id></Acct>
      ${entries
        .map(
          (e) => `<Ntry>
        <NtryRef>${e.ref}</NtryRef>
        <Amt Ccy="XOF">${e.amount}</Amt>
        <CdtDbtInd>${e.direction ?? 'CRDT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><DtTm>${e.at}</DtTm></BookgDt>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
          <RmtInf><Ustrd>VIREMENT ${e.ours ?? 'SANS REFERENCE'}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`,
        )
        .join('\n')}
    </Stmt>
  </BkToCstmrStmt>
</Document>`;

describe('reconciliation: a statement with one of each fault (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let admin: TestUser;
  let auditor: TestUser;
  let payer: TestUser;
  const refs: Record<string, string> = {};
  let today: string;

  const project = async () => {
    for (const projector of product.projectors) await catchUp(testDb.db, projector, { decode });
  };
  const post = (who: TestUser, url: string, payload: object) =>
    app.inject({
      method: 'POST',
      url: `/api/reconciliation${url}`,
      headers: withKey(who),
      payload,
    });
  const get = (who: TestUser, url: string) =>
    app.inject({ method: 'GET', url: `/api/reconciliation${url}`, headers: who.headers });
  const eventCount = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from events`.execute(testDb.db)).rows[0]!.n,
    );
  const openExceptions = async () => {
    const res = await get(auditor, '/exceptions?status=OPEN&limit=100');
    expect(res.statusCode).toBe(200);
    return (
      res.json() as { data: { id: string; kind: string; reference: string; amount: number }[] }
    ).data;
  };
  const run = async (day: string) => {
    const res = await post(admin, '/run', { source: 'BANK', day });
    expect(res.statusCode).toBe(200);
    await project();
    return res.json() as { opened: number; matched: number };
  };

  beforeAll(async () => {
    app = await buildTestApp(db());
    superAdmin = await walletUser(app, db(), 'ROLE_SUPER_ADMIN');
    admin = await walletUser(app, db(), 'ROLE_ADMIN');
    auditor = await walletUser(app, db(), 'ROLE_ACCOUNTING');
    payer = await walletUser(app, db(), 'ROLE_INDUSTRIAL');
    // Credited supplies: A (seen), B (never seen at the bank), D (bank shows another amount),
    // E (bank shows it twice), F (bank books it the next day).
    for (const [name, amount] of [
      ['A', 10_000],
      ['B', 20_000],
      ['D', 30_000],
      ['E', 40_000],
      ['F', 50_000],
    ] as const) {
      refs[name] = await fund(app, payer, superAdmin, amount);
    }
    // C: paid at the bank, never validated (the supply stays 'En attente').
    const created = await app.inject({
      method: 'POST',
      url: '/api/supply',
      headers: withKey(payer),
      payload: { amount: 60_000, walletId: payer.walletId, accountType: 'BANK', bank: 'BAB' },
    });
    expect(created.statusCode).toBe(201);
    refs.C = created.json<{ reference: string }>().reference;
    await project();
    const moved = await db()
      .selectFrom('reconciliation_movements')
      .select('moved_at')
      .where('reference', '=', refs.A!)
      .executeTakeFirstOrThrow();
    today = beninDay(moved.moved_at!);
  });
  afterAll(async () => app?.close());

  it('finds exactly the faults, a statement imported twice changing nothing', async () => {
    const at = (day: string, time: string) => `${day}T${time}+01:00`;
    const sameDay = camt([
      { ref: 'BK-A', amount: 10_000, at: at(today, '00:10:00'), ours: refs.A! },
      { ref: 'BK-C', amount: 60_000, at: at(today, '00:11:00'), ours: refs.C! },
      { ref: 'BK-D', amount: 29_000, at: at(today, '00:12:00'), ours: refs.D! },
      { ref: 'BK-E1', amount: 40_000, at: at(today, '00:13:00'), ours: refs.E! },
      { ref: 'BK-E2', amount: 40_000, at: at(today, '00:14:00'), ours: refs.E! },
    ]);
    const first = await post(admin, '/statements', { format: 'CAMT053', content: sameDay });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ recorded: 5, known: 0, conflicts: [] });
    const before = await eventCount();
    const again = await post(admin, '/statements', { format: 'CAMT053', content: sameDay });
    expect(again.json()).toMatchObject({ recorded: 0, known: 5, conflicts: [] });
    expect(await eventCount()).toBe(before);
    const late = camt([
      { ref: 'BK-F', amount: 50_000, at: at(nextDay(today), '00:20:00'), ours: refs.F! },
    ]);
    expect(
      (await post(admin, '/statements', { format: 'CAMT053', content: late })).statusCode,
    ).toBe(200);
    await project();

    // The day's close: a difference and a duplicate at once; the lone line and movement wait.
    expect(await run(today)).toMatchObject({ opened: 2 });
    expect((await openExceptions()).map((e) => [e.kind, e.reference]).sort()).toEqual(
      [
        ['AMOUNT_MISMATCH', refs.D],
        ['DUPLICATE', refs.E],
      ].sort(),
    );
    // The next day's close: the late line is matched; what is still alone is an exception.
    expect(await run(nextDay(today))).toMatchObject({ opened: 2 });
    const open = await openExceptions();
    expect(open.map((e) => [e.kind, e.reference]).sort()).toEqual(
      [
        ['AMOUNT_MISMATCH', refs.D],
        ['DUPLICATE', refs.E],
        ['MISSING_AT_PROVIDER', refs.B],
        ['MISSING_IN_LEDGER', refs.C],
      ].sort(),
    );
    // Run again: the same pairs, nothing appended.
    const settled = await eventCount();
    expect(await run(nextDay(today))).toMatchObject({ opened: 0 });
    expect(await eventCount()).toBe(settled);

    const days = await get(auditor, '/days?source=BANK');
    const close = days.json().data.find((d: { day: string }) => d.day === today);
    expect(close).toMatchObject({
      status: 'EXCEPTIONS',
      figures: {
        lines: 5,
        linesAmount: 179_000,
        movements: 5,
        matched: 3,
        unmatchedProvider: 2,
        unmatchedProviderAmount: 100_000,
        unmatchedLedger: 1,
        unmatchedLedgerAmount: 20_000,
        differences: 1,
        differencesAmount: 1_000,
        duplicates: 1,
      },
    });
    const nextClose = days.json().data.find((d: { day: string }) => d.day === nextDay(today));
    expect(nextClose).toMatchObject({ figures: { lines: 1, matched: 1, unmatchedProvider: 0 } });

    const report = await get(auditor, `/days/BANK/${today}/report.xlsx`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toContain('spreadsheetml');
  });

  it('resolves through the wallet’s command with four eyes; the auditor resolves nothing', async () => {
    const open = await openExceptions();
    const byKind = (kind: string) => open.find((e) => e.kind === kind)!;
    const missing = byKind('MISSING_IN_LEDGER');

    const byAuditor = await post(auditor, `/exceptions/${missing.id}/propose`, {
      action: 'CREDIT_SUPPLY',
      target: refs.C,
      note: '',
    });
    expect(byAuditor.statusCode).toBe(403);
    const proposed = await post(admin, `/exceptions/${missing.id}/propose`, {
      action: 'CREDIT_SUPPLY',
      target: refs.C,
      note: 'Virement reçu le matin',
    });
    expect(proposed.statusCode).toBe(200);
    const selfApproved = await post(admin, `/exceptions/${missing.id}/approve`, {});
    expect(selfApproved.statusCode).toBe(403);
    expect(selfApproved.json().message).toBe('Une autre personne doit approuver votre proposition');
    const approved = await post(superAdmin, `/exceptions/${missing.id}/approve`, {});
    expect(approved.statusCode).toBe(200);
    await project();
    const balance = await db()
      .selectFrom('wallet_balances')
      .select('balance')
      .where('wallet_id', '=', payer.walletId)
      .executeTakeFirstOrThrow();
    // 150 000 funded, and C's 60 000 credited by the approval.
    expect(balance.balance).toBe(210_000);

    for (const kind of ['MISSING_AT_PROVIDER', 'AMOUNT_MISMATCH', 'DUPLICATE']) {
      const res = await post(admin, `/exceptions/${byKind(kind).id}/close`, {
        reason: 'Vu avec la banque',
      });
      expect(res.statusCode).toBe(200);
    }
    await project();
    expect(await openExceptions()).toEqual([]);
    const detail = await get(auditor, `/exceptions/${missing.id}`);
    expect(detail.json()).toMatchObject({
      status: 'RESOLVED',
      history: [
        { type: 'ExceptionOpened' },
        { type: 'ResolutionProposed', userId: admin.id, note: 'Virement reçu le matin' },
        { type: 'ExceptionResolved', userId: superAdmin.id },
      ],
    });
    // The credited supply now matches its line.
    await run(nextDay(today));
    const days = await get(auditor, '/days?source=BANK');
    const close = days.json().data.find((d: { day: string }) => d.day === today);
    expect(close).toMatchObject({ figures: { matched: 4, unmatchedProvider: 1 } });

    // ledger:verify and ledger:check stay green.
    expect(await verifyLog(testDb.db, { catalogue: product.catalogue })).toMatchObject({
      ok: true,
    });
    for (const projector of product.projectors) {
      const result = await checkProjector(testDb.db, projector, { decode });
      expect({ projector: projector.name, differences: result.differences }).toEqual({
        projector: projector.name,
        differences: [],
      });
    }
  });

  it('closes each source’s yesterday once on schedule', async () => {
    const dayAfter = nextDay(today, 2);
    const runner = new DailyCloseRunner(
      {
        db: narrowDb<ReconciliationTables>()(testDb.db),
        pipeline: app.commands,
        limits: { maxCommandAmount: 1_000_000_000, maxBalance: 1_000_000_000 },
        clock: () => new Date(`${nextDay(dayAfter)}T08:00:00+01:00`),
        windowMs: DEFAULT_WINDOW_MS,
      },
      ['BANK'],
    );
    await runner.runDue();
    await project();
    const closed = await db()
      .selectFrom('reconciliation_days')
      .select(['day', 'reconciled_at'])
      .where('source', '=', 'BANK')
      .where('day', '=', dayAfter)
      .executeTakeFirstOrThrow();
    const before = await eventCount();
    await runner.runDue();
    expect(await eventCount()).toBe(before);
    expect(closed.day).toBe(dayAfter);
  });

  it('refuses a day that does not exist with a clear message, running nothing', async () => {
    const res = await post(admin, '/run', { source: 'BANK', day: '2026-02-30' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Date invalide (AAAA-MM-JJ)');
  });
});
