import { z } from 'zod';

/**
 * The dashboard's questions and answers (spec platform-and-wallet.md "Dashboard
 * (tableauBord)", §3 "Dashboard blocks", §7 `contracts/stats`). Every figure is read from the
 * reporting projections (reporting/dashboard/read-model), never folded per request.
 *
 * Who sees what:
 * - `GET /api/contracts/stats` — ROLE_INDUSTRIAL (the aggregator): its own contracts and the
 *   debts of the growers it contracts with; ROLE_CLUSTER_MANAGER: the aggregators and growers
 *   of its cluster; ROLE_SUPER_ADMIN and ROLE_ADMIN: everything, or one cluster (`clusterId`)
 *   or one aggregator (`aggregatorId`). A `clusterId`/`aggregatorId` outside the caller's
 *   reach is refused (403), never silently widened.
 * - `GET /api/contracts/stats/:id` — the same answer for the aggregator whose user id is `id`
 *   (the spec's call "with the user id"): the aggregator itself, a cluster manager for an
 *   aggregator of its cluster, super admin and admin for any.
 * - `GET /api/dashboard/me` — the roles with no contracts of their own to run: ROLE_GROWER (its
 *   contracts, debts and payments), ROLE_FARMER_ORGANIZATION (the same over its cooperative's
 *   growers), ROLE_SFD (its social financings and what was recovered of them).
 *
 * Dates are Benin calendar days (Africa/Porto-Novo, UTC+1 all year, platform's `beninDay`).
 * Money is integer F CFA; quantities are tonnes with at most three decimals (integer kg / 1000).
 */

const INVALID_DATE = 'Date invalide (format AAAA-MM-JJ)';

/** The spec's date-range presets (§2.11): Aujourd'hui, Semaine passée, Mois passé, Année passée, Depuis le début. */
export const DASHBOARD_PRESETS = ['TODAY', 'LAST_WEEK', 'LAST_MONTH', 'LAST_YEAR', 'ALL'] as const;
export type DashboardPreset = (typeof DASHBOARD_PRESETS)[number];

const day = z.iso.date({ message: INVALID_DATE });

/**
 * The range: `from`/`to` Benin days, both inclusive, or a `preset` resolved on the server from
 * today's Benin day (TODAY = [today, today]; LAST_WEEK = [today − 7 days, today]; LAST_MONTH =
 * [today − 1 month, today]; LAST_YEAR = [today − 1 year, today]; ALL = from the beginning).
 * Explicit `from`/`to` win over a preset; with neither, the range is ALL up to today.
 */
export const rangeQuery = z
  .object({
    from: day.optional(),
    to: day.optional(),
    preset: z.enum(DASHBOARD_PRESETS, { message: 'Période inconnue' }).optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'La date de début doit précéder la date de fin',
    path: ['from'],
  });

/** `GET /api/contracts/stats` and `/api/contracts/stats/:id`. */
export const contractsStatsQuery = z
  .object({
    from: day.optional(),
    to: day.optional(),
    preset: z.enum(DASHBOARD_PRESETS, { message: 'Période inconnue' }).optional(),
    /** Super admin and admin: one cluster ('Tout' sends none). Others: ignored if their own, 403 otherwise. */
    clusterId: z.guid({ message: 'Cluster inconnu' }).optional(),
    /** Super admin, admin, cluster manager (an aggregator of its cluster): one aggregator. */
    aggregatorId: z.guid({ message: 'Agrégateur inconnu' }).optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'La date de début doit précéder la date de fin',
    path: ['from'],
  });
export type ContractsStatsQuery = z.infer<typeof contractsStatsQuery>;

export const statsParams = z.object({ id: z.guid({ message: 'Identifiant invalide' }) });

/** One month of a chart: `month` is 'YYYY-MM' (the web labels it Jan … Déc). */
export const purchasesPoint = z.object({ month: z.string(), tonnes: z.number() });
export const debtsPoint = z.object({ month: z.string(), amount: z.number().int() });

/** The range actually answered (a preset resolved), Benin days; `from` null = the beginning. */
export const answeredRange = z.object({ from: z.string().nullable(), to: z.string() });

/**
 * Producers' debt cards (stocks, not flows: what is still owed at the end of `to`, whatever
 * `from`): principal opened up to `to` minus what was recovered up to `to`.
 * totalDebt = all three kinds; inputAdvanceDebt = AVANCE_SUR_INTRANT; financialDebt =
 * FINANCEMENT_SOCIAL (the microfinance debt); pineappleAdvanceDebt = AVANCE_SUR_ANANAS.
 */
export const debtBlock = z.object({
  totalDebt: z.number().int(),
  inputAdvanceDebt: z.number().int(),
  financialDebt: z.number().int(),
  pineappleAdvanceDebt: z.number().int(),
});

/**
 * The answer of `contracts/stats`. Flows count the delivery contracts CREATED in the range
 * (by their Benin creation day), each in its CURRENT status:
 * - globals.waitingDelivery: contracts PENDING or CONFIRMED (expected deliveries);
 *   globals.waitingQuantity: their quantity in tonnes; globals.amountToPaid: the amount of
 *   the contracts CONFIRMED or DELIVERED, not yet settled (what the aggregator will pay).
 * - delivery.totalContracts: all (every status); totalToConfirm: PENDING;
 *   availableProduction: DELIVERED (weighed, ready to run) in tonnes delivered;
 *   executedContracts: COMPLETED (settled, grower paid); delayedContracts: OUTTIME.
 * - carriage: carriage contracts created in the range: totalContracts all, totalToConfirm
 *   created and neither paid nor canceled, executedContracts paid.
 * - inputAdvance: the AVANCE_SUR_INTRANT debts opened in the range by the aggregator(s):
 *   totalContracts their number, totalAmount their principal, recoveredAmount what was
 *   recovered of them so far, remainingAmount the difference.
 * - purchases: per month of the calendar year of `to` (12 points, 'YYYY-MM'), the tonnes
 *   delivered by the contracts SETTLED that month (Benin day of settlement);
 *   debts: per month of that year, the producers' debt outstanding at the month's end
 *   (months after `to` repeat nothing: they are left at the value of `to`'s month).
 */
export const contractsStatsAnswer = z.object({
  range: answeredRange,
  scope: z.object({
    kind: z.enum(['ALL', 'CLUSTER', 'AGGREGATOR']),
    clusterId: z.string().nullable(),
    aggregatorId: z.string().nullable(),
  }),
  debt: debtBlock,
  globals: z.object({
    waitingDelivery: z.number().int(),
    waitingQuantity: z.number(),
    amountToPaid: z.number().int(),
  }),
  delivery: z.object({
    totalContracts: z.number().int(),
    totalToConfirm: z.number().int(),
    availableProduction: z.number(),
    executedContracts: z.number().int(),
    delayedContracts: z.number().int(),
    canceledContracts: z.number().int(),
  }),
  carriage: z.object({
    totalContracts: z.number().int(),
    totalToConfirm: z.number().int(),
    executedContracts: z.number().int(),
  }),
  inputAdvance: z.object({
    totalContracts: z.number().int(),
    totalAmount: z.number().int(),
    recoveredAmount: z.number().int(),
    remainingAmount: z.number().int(),
  }),
  purchases: z.array(purchasesPoint),
  debts: z.array(debtsPoint),
});
export type ContractsStatsAnswer = z.infer<typeof contractsStatsAnswer>;

/**
 * `GET /api/dashboard/me` (grower, cooperative, SFD). `kind` says which blocks are filled:
 * - GROWER: `contracts` = its delivery contracts created in the range (same meanings as
 *   `delivery` above, plus waitingDelivery and quantities); `debt` = its own debts (stock at
 *   `to`); `payments` = the net it was paid by the contracts settled in the range (count and
 *   total of growerNet); `purchases` = tonnes it delivered per month (settled), `debts` its
 *   outstanding debt per month-end. `financing` is null.
 * - FARMER_ORGANIZATION: the same, summed over the growers of its cooperative (as the
 *   cooperative is now).
 * - SFD: `financing` = the FINANCEMENT_SOCIAL debts it is creditor of: opened in the range
 *   (count, principal), recovered in the range, outstanding at `to`; `debts` its outstanding per
 *   month-end. `contracts` and `payments` are null; `debt` holds only financialDebt.
 */
export const personalDashboardAnswer = z.object({
  kind: z.enum(['GROWER', 'FARMER_ORGANIZATION', 'SFD']),
  range: answeredRange,
  contracts: z
    .object({
      totalContracts: z.number().int(),
      totalToConfirm: z.number().int(),
      waitingDelivery: z.number().int(),
      waitingQuantity: z.number(),
      availableProduction: z.number(),
      executedContracts: z.number().int(),
      delayedContracts: z.number().int(),
      amount: z.number().int(),
    })
    .nullable(),
  debt: debtBlock,
  payments: z.object({ count: z.number().int(), total: z.number().int() }).nullable(),
  financing: z
    .object({
      count: z.number().int(),
      principal: z.number().int(),
      recovered: z.number().int(),
      outstanding: z.number().int(),
    })
    .nullable(),
  purchases: z.array(purchasesPoint),
  debts: z.array(debtsPoint),
});
export type PersonalDashboardAnswer = z.infer<typeof personalDashboardAnswer>;

/** The push the dashboard projector sends (no data: the web refetches ['dashboard']). */
export const DASHBOARD_PUSHES = ['reporting.dashboard'] as const;
