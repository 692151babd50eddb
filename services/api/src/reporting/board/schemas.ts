import { z } from 'zod';

/**
 * The super admin's reporting board (spec actors-contracts-admin.md §2.8 and §7
 * `reporting/growers-stats`, `reporting/transactions-stats`). Read from the reporting
 * projections (reporting/board/read-model) only.
 *
 * Who sees what: ROLE_SUPER_ADMIN only (§6 "Reporting: super admin"), every cluster or the one
 * picked (`clusterId`; 'Tout' sends none). Every other role gets 403.
 */

const INVALID = 'Entré non valide';

const clusterId = z.guid({ message: 'Cluster inconnu' }).optional();

/** `GET /api/reporting/growers-stats?clusterId&page&limit&q`. */
export const growersStatsQuery = z.object({
  clusterId,
  page: z.coerce.number({ message: INVALID }).int({ message: INVALID }).min(1, INVALID).default(1),
  limit: z.coerce
    .number({ message: INVALID })
    .int({ message: INVALID })
    .min(1, INVALID)
    .max(100, INVALID)
    .default(10),
  /** Searches last name, first name, phone and the grower's reference (case and accents ignored). */
  q: z.string().trim().max(100, INVALID).optional(),
});
export type GrowersStatsQuery = z.infer<typeof growersStatsQuery>;

/** One row of the growers table: Nom, Prénoms, Téléphone, Superficie emblavée (ha). */
export const growerStatsRow = z.object({
  growerId: z.string(),
  reference: z.string(),
  lastname: z.string(),
  firstname: z.string(),
  phone: z.string().nullable(),
  /** The sum of areaSown over the grower's plots, hectares (as entered, up to 4 decimals). */
  areaSown: z.number(),
  plots: z.number().int(),
});

/**
 * The answer: `data` (one page, ordered by last name, first name, reference), `count` (the
 * rows matching `q`), and the three grower cards over the whole cluster (or all), ignoring `q`:
 * growers (registered, active or not), plots, areaSown (total ha).
 */
export const growersStatsAnswer = z.object({
  data: z.array(growerStatsRow),
  count: z.number().int(),
  cards: z.object({
    growers: z.number().int(),
    plots: z.number().int(),
    areaSown: z.number(),
  }),
});
export type GrowersStatsAnswer = z.infer<typeof growersStatsAnswer>;

/** `GET /api/reporting/transactions-stats?clusterId` and `GET /api/reporting/export.xlsx?clusterId`. */
export const clusterQuery = z.object({ clusterId });

/**
 * The six transaction cards, summed over the wallets whose owner is in the cluster picked
 * (identity's cluster of the user now), or over every wallet — the wallet's own
 * `transaction/stats` figures: countDebit/totalDebit: withdrawals debited (WithdrawalDebited,
 * mobile money or bank); countSupplies/totalSupplies: supplies credited (SupplyCredited: mobile
 * money, card, bank); countTransfer/totalTransfer: transfers sent between wallets (TransferSent;
 * contract settlements are hold settlements, not transfers). Totals are integer F CFA.
 */
export const transactionsStatsAnswer = z.object({
  countDebit: z.number().int(),
  totalDebit: z.number().int(),
  countSupplies: z.number().int(),
  totalSupplies: z.number().int(),
  countTransfer: z.number().int(),
  totalTransfer: z.number().int(),
});
export type TransactionsStatsAnswer = z.infer<typeof transactionsStatsAnswer>;

/** The push the board's projector sends to super admins (no data: the web refetches ['reporting']). */
export const BOARD_PUSHES = ['reporting.board'] as const;
