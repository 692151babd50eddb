import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { beninDay } from '@filiere/platform';
import { TORTURE_FERTILIZER_ID, type Population, type TortureUser } from './population.js';

/** The season's NPK line: aᵢ = 350 F/kg, dose 400 (the seasons' own browser test uses it). */
export const TORTURE_UNIT_AMOUNT = 350;
/** Kg of NPK each provider is assigned per link (its hold: 400 × 350 = 140,000 F). */
export const TORTURE_ASSIGNED_KG = 400;
/** What each season aggregator is funded with before the load (for the providers' holds). */
const SEASON_FUNDING = 1_000_000;

const dayFromNow = (days: number) => beninDay(new Date(Date.now() + days * 86_400_000));

/**
 * The seasons' population, before the load, through the API as the super admin and the
 * members: a season with an NPK line, the first aggregator of each cluster attached and
 * accepting (the link its cluster's growers file to), funded by a validated bank supply, and
 * each provider assigned 400 kg of NPK in each link (a hold on the aggregator's wallet).
 * Growers and providers are actors already (population.ts inserts their rows).
 */
export async function setupSeasons(
  population: Population,
  apiUrl: string,
  log: (line: string) => void,
): Promise<NonNullable<Population['season']>> {
  const call = apiCaller(apiUrl, 'seasons');
  const admin = population.superAdmin;
  const { seasonId } = await call<{ seasonId: number }>(
    admin,
    'POST',
    '/clusters',
    {
      label: 'Saison Torture',
      from: dayFromNow(2),
      to: dayFromNow(300),
      unitProductAmount: 125,
      productionIndex: 50,
      quotity: 10,
      fertilizers: [
        { fertilizerId: TORTURE_FERTILIZER_ID, amount: TORTURE_UNIT_AMOUNT, index: 400 },
      ],
    },
    201,
  );
  await call(admin, 'POST', `/clusters/activate-cluster/${seasonId}`, undefined, 200);
  const links: NonNullable<Population['season']>['links'] = [];
  for (const cluster of [0, 1]) {
    const aggregator = population.members.find(
      (m) => m.role === 'ROLE_INDUSTRIAL' && m.cluster === cluster,
    )!;
    const { linkId } = await call<{ linkId: number }>(
      admin,
      'POST',
      `/clusters/${seasonId}/industrial`,
      // 150 t at 400 kg/ha and 50 t/ha: 1,200 kg of NPK, 400 kg for each of the three providers.
      { industrialId: aggregator.id, quantity: 150_000 },
      201,
    );
    await call(aggregator, 'POST', `/seasons/${seasonId}/accept`, {}, 200);
    const supply = await call<{ reference: string }>(
      aggregator,
      'POST',
      '/supply',
      { amount: SEASON_FUNDING, walletId: aggregator.walletId, accountType: 'BANK', bank: 'BAB' },
      201,
    );
    await call(admin, 'POST', '/supply/validate-bank-supply', { reference: supply.reference }, 200);
    for (const provider of [...population.providers, population.offlineProvider]) {
      await call(
        aggregator,
        'POST',
        '/user-cluster-input-provider',
        {
          userClusterId: linkId,
          inputProviderId: provider.id,
          fertilizerId: TORTURE_FERTILIZER_ID,
          quantity: TORTURE_ASSIGNED_KG,
        },
        201,
      );
    }
    links.push({ cluster, aggregatorId: aggregator.id, linkId });
  }
  log(
    `season ${seasonId}: links ${links.map((l) => l.linkId).join(', ')}, ${population.providers.length + 1} providers assigned ${TORTURE_ASSIGNED_KG} kg each per link`,
  );
  return { seasonId, links };
}

/**
 * A setup call through the API (a fresh Idempotency-Key each), expecting one status: a read
 * side just written may answer 404 until its projector has the event, so 404 and 5xx are
 * tried again (up to 10 s); anything else throws with the answer.
 */
export function apiCaller(apiUrl: string, what: string) {
  return async <T>(
    user: TortureUser,
    method: 'POST' | 'GET',
    path: string,
    body: unknown,
    expected: number,
  ): Promise<T> => {
    let last = '';
    for (let attempt = 0; attempt < 40; attempt++) {
      const response = await fetch(`${apiUrl}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${user.token}`,
          'idempotency-key': randomUUID(),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status === expected) return (text ? JSON.parse(text) : {}) as T;
      last = `${method} ${path}: ${response.status} ${text}`;
      if (response.status !== 404 && response.status < 500) break;
      await sleep(250);
    }
    throw new Error(`bank test ${what} setup: ${last}`);
  };
}
