import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beninDay, createLogger, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildApp, type Database } from '@filiere/api';
import { findDemoUser } from '@filiere/api/identity';
import { loadDemoData } from './load.js';

/** The whole demo as `npm start` loads it (and projects it). */
const t = useTestDatabase<Database>();
let app: FastifyInstance;

beforeAll(async () => {
  await loadDemoData({ db: t.db, logger: createLogger('silent', false) });
  app = await buildApp({
    config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    db: t.db,
    logger: createLogger('silent', false),
  });
}, 300_000);
afterAll(async () => {
  await app?.close();
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
