import type { FastifyInstance } from 'fastify';
import { inflateSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beninDay, createLogger, parseConfig } from '@filiere/platform';
import { createSeededTestDatabase, type TestDatabase } from '@filiere/platform/testing';
import { buildApp, type Database } from '@filiere/api';
import {
  DEMO_COOPERATIVE_EMAIL,
  DEMO_GROWER_EMAIL,
  DEMO_PASSWORD,
  findDemoUser,
} from '@filiere/api/identity';
import { loadDemoData } from './load.js';
import { demoSeed } from './seed.js';

/**
 * The whole demo as `npm start` loads it (and projects it): a copy of the run's demo template,
 * which `loadDemoData` built (demoSeed), so the run loads the demo once for this file and the
 * browser files.
 */
const t = {} as TestDatabase<Database>;
let app: FastifyInstance;

beforeAll(async () => {
  Object.assign(t, await createSeededTestDatabase(demoSeed()));
  // On a database that holds the demo, loading it again runs no step.
  expect(await loadDemoData({ db: t.db, logger: createLogger('silent', false) })).toEqual([]);
  app = await buildApp({
    config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    db: t.db,
    logger: createLogger('silent', false),
  });
}, 300_000);
afterAll(async () => {
  await app?.close();
  await t.drop?.();
});

interface Row {
  position: number;
  stream_id: string;
  version: number;
  type: string;
  data: Record<string, unknown>;
  recorded_at: Date;
}

async function events(): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select position, stream_id, version, type, data, recorded_at from events order by position`.execute(
    t.db,
  );
  return rows;
}

/** When the first event of `type` (of a stream matching `stream`, when given) was recorded. */
function first(rows: Row[], type: string, stream?: string): number {
  const found = rows.find((r) => r.type === type && (!stream || r.stream_id === stream));
  if (!found) throw new Error(`no ${type}${stream ? ` on ${stream}` : ''}`);
  return found.recorded_at.getTime();
}

describe('the demo is a season in progress', () => {
  it('dates its movements over the past months, each stream in order, every one before now', async () => {
    const rows = await events();
    const now = Date.now();
    expect(rows.every((r) => r.recorded_at.getTime() <= now)).toBe(true);
    // Each stream's events never go back in time as its version grows ('balance at an instant').
    const last = new Map<string, number>();
    for (const r of [...rows].sort((a, b) => a.version - b.version)) {
      expect(r.recorded_at.getTime()).toBeGreaterThanOrEqual(last.get(r.stream_id) ?? 0);
      last.set(r.stream_id, r.recorded_at.getTime());
    }
    const months = new Set(rows.map((r) => beninDay(r.recorded_at).slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(6);
    const money = rows.filter((r) =>
      ['SupplyCredited', 'TransferSent', 'HoldPlaced', 'HoldSettled', 'WithdrawalDebited'].includes(
        r.type,
      ),
    );
    const moneyMonths = new Set(money.map((r) => beninDay(r.recorded_at).slice(0, 7)));
    expect(moneyMonths.size).toBeGreaterThanOrEqual(5);
    expect(money.some((r) => beninDay(r.recorded_at) === beninDay(new Date()))).toBe(true);
  });

  it('in a plausible order: supply before transfer, invitation before acceptance, request before delivery, contract before delivery before run', async () => {
    const rows = await events();
    expect(first(rows, 'SupplyCredited')).toBeLessThan(first(rows, 'TransferSent'));
    expect(first(rows, 'GrowerRegistered')).toBeLessThan(first(rows, 'SeasonCreated'));
    expect(first(rows, 'SeasonCreated')).toBeLessThan(first(rows, 'IndustrialAttached'));
    expect(first(rows, 'IndustrialAttached')).toBeLessThan(first(rows, 'IndustrialAccepted'));
    expect(first(rows, 'IndustrialAccepted')).toBeLessThan(first(rows, 'InputProviderAssigned'));

    const delivered = rows.find((r) => r.type === 'InputDelivered')!;
    const request = delivered.stream_id;
    expect(first(rows, 'GrowerRequestFiled', request)).toBeLessThan(
      first(rows, 'GrowerRequestAccepted', request),
    );
    expect(first(rows, 'GrowerRequestAccepted', request)).toBeLessThan(
      delivered.recorded_at.getTime(),
    );

    const settled = rows.find((r) => r.type === 'DeliveryContractSettled')!;
    const contract = settled.stream_id;
    const created = first(rows, 'DeliveryContractCreated', contract);
    const confirmed = first(rows, 'DeliveryContractConfirmed', contract);
    const recorded = first(rows, 'DeliveryRecorded', contract);
    expect(created).toBeLessThan(confirmed);
    // Every contract delivered holds the grower's acceptance, once (DeliveryContractAccepted).
    for (const delivery of rows.filter((r) => r.type === 'DeliveryRecorded')) {
      const accepted = rows.filter(
        (r) => r.type === 'DeliveryContractAccepted' && r.stream_id === delivery.stream_id,
      );
      expect(accepted).toHaveLength(1);
      expect(accepted[0]!.recorded_at.getTime()).toBeLessThanOrEqual(
        delivery.recorded_at.getTime(),
      );
    }
    expect(confirmed).toBeLessThan(recorded);
    expect(recorded).toBeLessThan(settled.recorded_at.getTime());
    // The payloads' own dates are the moments the events were recorded at.
    const createdEvent = rows.find(
      (r) => r.type === 'DeliveryContractCreated' && r.stream_id === contract,
    )!;
    expect(beninDay(String(createdEvent.data.createdAt))).toBe(beninDay(new Date(created)));
    expect(beninDay(String(settled.data.settledAt))).toBe(beninDay(settled.recorded_at));
    // Made, delivered and run over weeks, not in one moment.
    expect(settled.recorded_at.getTime() - created).toBeGreaterThan(14 * 86_400_000);
  });

  it('gives the dashboard’s presets different figures, and its charts bars in several months', async () => {
    const aggregator = await findDemoUser(t.db, 'agregateur@demo.filiere.bj');
    const token = app.jwt.sign({ sub: aggregator.id, role: 'ROLE_INDUSTRIAL' });
    const stats = async (preset: string) => {
      const res = await app.inject({
        url: `/api/contracts/stats?preset=${preset}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json() as {
        delivery: { totalContracts: number };
        purchases: { month: string; tonnes: number }[];
        debts: { month: string; amount: number }[];
      };
      return body;
    };
    const totals = [];
    for (const preset of ['TODAY', 'LAST_WEEK', 'LAST_MONTH', 'LAST_YEAR']) {
      totals.push((await stats(preset)).delivery.totalContracts);
    }
    // Each wider range holds strictly more contracts than the one before.
    for (let i = 1; i < totals.length; i++) expect(totals[i]).toBeGreaterThan(totals[i - 1]!);
    const all = await stats('ALL');
    const withDebts = all.debts.filter((p) => p.amount > 0).map((p) => p.month);
    const withPurchases = all.purchases.filter((p) => p.tonnes > 0).map((p) => p.month);
    expect(new Set([...withDebts, ...withPurchases]).size).toBeGreaterThanOrEqual(2);
  });
});

/** The text of a pdfkit PDF: its content streams inflated, the hex strings of their TJ arrays. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  let content = '';
  for (const match of raw.matchAll(/(?<!end)stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    try {
      content += inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      content += raw.slice(start, end);
    }
  }
  const lines: string[] = [];
  for (const match of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    const parts = [...match[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) =>
      Buffer.from(m[1]!, 'hex').toString('latin1'),
    );
    lines.push(parts.join(''));
  }
  return lines.join('\n');
}

describe('every demo account stands for a real record', () => {
  let client = 0;
  /** Signs in as the demo account with the demo password (its own client address each time). */
  async function signIn(email: string): Promise<{ id: string; token: string }> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: DEMO_PASSWORD },
      remoteAddress: `10.77.0.${++client}`,
    });
    expect(res.statusCode, email).toBe(200);
    const body = res.json() as { access_token: string; user: { id: string } };
    return { id: body.user.id, token: body.access_token };
  }
  const as = (who: { token: string }, url: string, method: 'GET' | 'PATCH' = 'GET') =>
    app.inject({ method, url, headers: { authorization: `Bearer ${who.token}` } });

  interface Item {
    id: string;
    type: string;
    status: string;
  }
  const growerOf = async (userId: string) =>
    t.db
      .selectFrom('growers')
      .select(['id', 'cooperative_id'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();

  it('cooperative@ represents the Allada cooperative: it sees its growers, has confirmed contracts of theirs and confirms a pending one', async () => {
    const coop = await signIn(DEMO_COOPERATIVE_EMAIL);
    const row = await t.db
      .selectFrom('cooperatives')
      .select(['organization_id', 'cluster_id'])
      .where('user_id', '=', coop.id)
      .executeTakeFirstOrThrow();
    const aggregator = await findDemoUser(t.db, 'agregateur@demo.filiere.bj');
    expect(row.cluster_id).toBe(aggregator.clusterId);

    const growers = await as(coop, '/api/grower?limit=100');
    expect(growers.statusCode).toBe(200);
    const list = growers.json() as { data: { id: string }[]; count: number };
    expect(list.count).toBeGreaterThanOrEqual(1);
    // The demo grower account is one of them.
    const producteur = await growerOf((await findDemoUser(t.db, DEMO_GROWER_EMAIL)).id);
    expect(producteur.cooperative_id).toBe(row.organization_id);
    expect(list.data.map((g) => g.id)).toContain(producteur.id);

    // Contracts of its growers it has already confirmed.
    const confirmedByIt = await t.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'DeliveryContractConfirmed')
      .where(sql<boolean>`data->>'confirmedBy' = ${coop.id}`)
      .execute();
    expect(confirmedByIt.length).toBeGreaterThanOrEqual(1);
    // Each with the code its grower received (the cooperative entered it).
    const acceptedByIt = await t.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'DeliveryContractAccepted')
      .where(sql<boolean>`data->>'acceptedBy' = ${coop.id}`)
      .execute();
    expect(acceptedByIt.map((e) => (e.data as { method: string }).method)).toEqual(
      confirmedByIt.map(() => 'CODE'),
    );

    // One waits for it: the cooperative confirms it (the grower's page lists it).
    const contracts = await as(coop, `/api/grower/contracts/${producteur.id}?limit=100`);
    expect(contracts.statusCode).toBe(200);
    const pendings = (contracts.json() as { data: Item[] }).data.filter(
      (c) => c.type === 'LIVRAISON' && c.status === 'PENDING',
    );
    // The grower gives it the code of the latest offer he received by SMS.
    const { phone } = await t.db
      .selectFrom('users')
      .select('phone')
      .where('email', '=', DEMO_GROWER_EMAIL)
      .executeTakeFirstOrThrow();
    const offer = await t.db
      .selectFrom('sms_outbox')
      .select('text')
      .where('recipient', '=', phone!)
      .where('text', 'like', 'Filière: contrat LIV-%')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const [, reference, code] = /contrat (LIV-[0-9A-F]+),.* code (\d{6})$/.exec(offer.text)!;
    const pending = await t.db
      .selectFrom('delivery_contracts')
      .select('id')
      .where('reference', '=', reference!)
      .executeTakeFirstOrThrow();
    expect(pendings.map((c) => c.id)).toContain(pending.id);
    const confirmed = await app.inject({
      method: 'PATCH',
      url: `/api/contracts/delivery-contract/${pending.id}/confirm`,
      headers: { authorization: `Bearer ${coop.token}` },
      payload: { code },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ contractId: pending.id, status: 'CONFIRMED' });
  });

  it('producteur@ is a grower with plots: it sees its contracts, its debts and its statement', async () => {
    const grower = await signIn(DEMO_GROWER_EMAIL);
    const record = await growerOf(grower.id);
    const plots = await t.db
      .selectFrom('plots')
      .select('id')
      .where('grower_id', '=', record.id)
      .execute();
    expect(plots.length).toBeGreaterThanOrEqual(1);

    // Its dashboard: its contracts and what it owes (the pineapple advance it was paid).
    const dashboard = await as(grower, '/api/dashboard/me?preset=ALL');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    const mine = dashboard.json() as {
      kind: string;
      contracts: { totalContracts: number };
      debt: { totalDebt: number; pineappleAdvanceDebt: number };
    };
    expect(mine.kind).toBe('GROWER');
    expect(mine.contracts.totalContracts).toBeGreaterThanOrEqual(1);
    expect(mine.debt.totalDebt).toBeGreaterThan(0);
    expect(mine.debt.pineappleAdvanceDebt).toBeGreaterThan(0);

    // Each of its contracts opens for it.
    const contracts = await t.db
      .selectFrom('delivery_contracts')
      .select(['id', 'reference'])
      .where('grower_id', '=', record.id)
      .execute();
    expect(contracts.length).toBeGreaterThanOrEqual(1);
    for (const c of contracts) {
      const one = await as(grower, `/api/contracts/delivery-contract/${c.id}`);
      expect(one.statusCode, one.body).toBe(200);
    }

    const link = await as(grower, '/api/contracts/statement-download/me');
    expect(link.statusCode, link.body).toBe(200);
    const url = new URL((link.json() as { url: string }).url, 'http://localhost');
    const pdf = await app.inject({ url: `${url.pathname}${url.search}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/^application\/pdf/);
    // The statement lists its contracts (their references are printed).
    const text = pdfText(pdf.rawPayload);
    for (const c of contracts) expect(text).toContain(c.reference);
  });
});
