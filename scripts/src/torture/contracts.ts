import type { Population } from './population.js';
import { apiCaller } from './seasons.js';

/** What the super admin gives the SFD before the load (it finances growers from it). */
const SFD_FUNDING = 1_000_000;
/** The social financing each grower receives before the load (an FINANCEMENT_SOCIAL debt). */
export const TORTURE_SOCIAL_FINANCING = 15_000;

/**
 * The contracts' population, before the load, through the API: the super admin funds the SFD
 * (a validated bank supply of its own, then a transfer), every grower files a SOCIAL request
 * in the season and the SFD accepts them all — so every grower starts the load owing the SFD
 * a FINANCEMENT_SOCIAL debt, which the runs of its delivery contracts repay to the SFD.
 * Growers' plots are rows already (population.ts). Returns how many financings were paid.
 */
export async function setupContracts(
  population: Population,
  apiUrl: string,
  log: (line: string) => void,
): Promise<number> {
  const call = apiCaller(apiUrl, 'contracts');
  const { superAdmin: admin, sfd, season } = population;
  if (!season) throw new Error('bank test contracts setup: the season is not set up');
  const supply = await call<{ reference: string }>(
    admin,
    'POST',
    '/supply',
    { amount: SFD_FUNDING, walletId: admin.walletId, accountType: 'BANK', bank: 'BAB' },
    201,
  );
  await call(admin, 'POST', '/supply/validate-bank-supply', { reference: supply.reference }, 200);
  await call(
    admin,
    'POST',
    '/wallet/make-transfer',
    {
      source: admin.walletId,
      destination: sfd.walletId,
      amount: SFD_FUNDING,
      reason: 'Dotation du fonds de financement social',
    },
    201,
  );
  const ids: number[] = [];
  for (const grower of population.members.filter((m) => m.growerId)) {
    const filed = await call<{ requestId: number }>(
      grower,
      'POST',
      '/season-requests',
      {
        type: 'SOCIAL',
        seasonId: season.seasonId,
        growerId: grower.growerId,
        amount: TORTURE_SOCIAL_FINANCING,
        sfdUserId: sfd.id,
      },
      201,
    );
    ids.push(filed.requestId);
  }
  const accepted = await call<{ done: number; results: { ok: boolean; message?: string }[] }>(
    sfd,
    'POST',
    '/user-cluster-grower/accept-requests',
    { ids },
    200,
  );
  if (accepted.done !== ids.length) {
    throw new Error(
      `bank test contracts setup: the SFD accepted ${accepted.done} of ${ids.length} financings: ${JSON.stringify(accepted.results.filter((r) => !r.ok))}`,
    );
  }
  log(
    `SFD funded ${SFD_FUNDING} F; ${ids.length} growers each owe it ${TORTURE_SOCIAL_FINANCING} F`,
  );
  return ids.length;
}
