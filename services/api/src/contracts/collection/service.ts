import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { requestFingerprint } from '@filiere/event-store';
import { beninDay, ForbiddenError, ValidationError } from '@filiere/platform';
import type { ActorsTables } from '../../actors/index.js';
import { identityUsers, type IdentityTables } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import type { LocationsTables } from '../../locations/index.js';
import {
  schedulePayoutJobs,
  type WalletJobsTables,
  type WalletTables,
} from '../../wallet/index.js';
import { kgToTonnes, type QualityGrade } from '../domain/index.js';
import type { ContractSettler, SettleOutcome } from '../run/settle-contract.js';
import type { ContractsTables } from '../tables.js';
import { forecastHarvest, type ForecastRow } from './harvest.js';

/** What the collection centre reads: growers, users, contracts, and the payout jobs it queues. */
export type CollectionTables = Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'growers' | 'plots'> &
  Pick<LocationsTables, 'communes'> &
  Pick<ContractsTables, 'delivery_contracts' | 'grower_debts'> &
  Pick<WalletTables, 'wallet_balances'> &
  WalletJobsTables;

export const COLLECTION_MESSAGES = {
  noCluster: 'Votre compte n’est rattaché à aucun cluster',
  kilograms: 'Entrez le poids pesé en kilogrammes (un nombre entier supérieur à zéro)',
} as const;

/** A grower the scale found, with the open (CONFIRMED) contracts the aggregator holds with him. */
export interface CollectionGrower {
  id: string;
  reference: string;
  firstname: string;
  lastname: string;
  phone: string | null;
  hasMobileMoney: boolean;
  contracts: {
    id: string;
    reference: string;
    quantity: string;
    amount: number;
    deliveryDate: string;
  }[];
}

/**
 * The check of a grower's phone kept offline: SHA-256 of `<growerId>:<last eight digits>`,
 * base64 — the phone is never kept in clear on the scale's phone; the screen hashes what is
 * typed the same way (collection/offline-day.ts in web).
 */
export const phoneCheckOf = (growerId: string, phone: string): string | null => {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 8) return null;
  return createHash('sha256')
    .update(`${growerId}:${digits.slice(-8)}`)
    .digest('base64');
};

/**
 * What the scale keeps for a day offline (docs/contracts.md "Offline at the scale"): the
 * aggregator's available balance, and each grower of its cluster holding an open (CONFIRMED)
 * contract with it — name, code, his phones' checks (never the number), whether he has a
 * mobile money number, his open contracts and his outstanding debts, which are what the
 * settlement rule needs to compute value, recoveries and net without the network.
 */
export interface OfflineDay {
  issuedAt: string;
  aggregatorUserId: string;
  available: number;
  growers: {
    id: string;
    reference: string;
    firstname: string;
    lastname: string;
    phoneChecks: string[];
    hasMobileMoney: boolean;
    contracts: {
      id: string;
      reference: string;
      quantityKg: number;
      amount: number;
      deliveryDate: string;
    }[];
    debts: {
      id: string;
      kind: string;
      creditorUserId: string;
      outstanding: number;
      openedAt: string;
    }[];
  }[];
}

/** One weighing as the scale sends it. */
export interface Weighing {
  contractId: string;
  kilograms: number;
  grade: QualityGrade;
  /** The day the grower's fruit was weighed (YYYY-MM-DD); today (Benin) when absent. */
  weighedOn?: string | undefined;
}

/** A weighing's settlement, as the screen and the receipt show it. */
export interface WeighingAnswer extends SettleOutcome {
  grade: QualityGrade;
  weighedOn: string;
  /** True when the mobile money payout of the net is queued (false: the net stays in the wallet). */
  payoutQueued: boolean;
}

/**
 * The collection centre's scale: finds a grower by his code (PRD-000123, or its digits) or
 * phone number within the aggregator's cluster, previews a weighing with the very command
 * confirm runs (a dry run: never a second rule), and confirms it as ONE command — delivery
 * recorded, contract settled, net queued to mobile money — keyed by the idempotency key the
 * scale generated when the weighing was entered, so a replay (a retry, an offline queue)
 * takes effect exactly once.
 */
export class CollectionService {
  constructor(
    private readonly db: Kysely<CollectionTables>,
    private readonly settler: ContractSettler,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async findGrowers(user: SignedInUser, q: string): Promise<CollectionGrower[]> {
    if (!user.cluster_id) throw new ForbiddenError(COLLECTION_MESSAGES.noCluster);
    const text = q.trim();
    const digits = text.replace(/\D/g, '');
    if (!digits) return [];
    // A code: PRD- and its number, with or without the zeros; a phone: its last eight digits.
    const reference = /^(prd-?)?\d{1,9}$/i.test(text.replace(/\s/g, ''))
      ? `PRD-${digits.padStart(6, '0')}`
      : null;
    const phone = digits.length >= 8 ? digits.slice(-8) : null;
    if (!reference && !phone) return [];
    const rows = await this.db
      .selectFrom('growers as g')
      .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
      .select([
        'g.id',
        'g.reference',
        'u.firstname',
        'u.lastname',
        'u.phone',
        'g.contact_phone',
        'u.momo_account_number',
      ])
      .where('g.cluster_id', '=', user.cluster_id)
      .where('g.deactivated_at', 'is', null)
      .where((eb) =>
        eb.or([
          ...(reference ? [eb('g.reference', '=', reference)] : []),
          ...(phone
            ? [
                eb(
                  sql`right(regexp_replace(coalesce(u.phone, ''), '\\D', '', 'g'), 8)`,
                  '=',
                  phone,
                ),
                eb(
                  sql`right(regexp_replace(coalesce(g.contact_phone, ''), '\\D', '', 'g'), 8)`,
                  '=',
                  phone,
                ),
              ]
            : []),
        ]),
      )
      .orderBy('g.reference')
      .limit(5)
      .execute();
    if (rows.length === 0) return [];
    const contracts = await this.db
      .selectFrom('delivery_contracts')
      .select(['id', 'reference', 'grower_id', 'quantity_kg', 'amount', 'delivery_date'])
      .where('aggregator_user_id', '=', user.id)
      .where('status', '=', 'CONFIRMED')
      .where(
        'grower_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('delivery_date')
      .orderBy('reference')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      reference: r.reference,
      firstname: r.firstname ?? '',
      lastname: r.lastname ?? '',
      phone: r.phone ?? r.contact_phone ?? null,
      hasMobileMoney: Boolean(r.momo_account_number?.trim()),
      contracts: contracts
        .filter((c) => c.grower_id === r.id)
        .map((c) => ({
          id: c.id,
          reference: c.reference,
          quantity: kgToTonnes(Number(c.quantity_kg)),
          amount: Number(c.amount),
          deliveryDate: String(c.delivery_date).slice(0, 10),
        })),
    }));
  }

  /** The day's data for working offline (see `OfflineDay`). */
  async offlineDay(user: SignedInUser): Promise<OfflineDay> {
    if (!user.cluster_id) throw new ForbiddenError(COLLECTION_MESSAGES.noCluster);
    const contracts = await this.db
      .selectFrom('delivery_contracts as c')
      .innerJoin('growers as g', 'g.id', 'c.grower_id')
      .select([
        'c.id',
        'c.reference',
        'c.grower_id',
        'c.quantity_kg',
        'c.amount',
        'c.delivery_date',
      ])
      .where('c.aggregator_user_id', '=', user.id)
      .where('c.status', '=', 'CONFIRMED')
      .where('g.cluster_id', '=', user.cluster_id)
      .where('g.deactivated_at', 'is', null)
      .orderBy('c.delivery_date')
      .orderBy('c.reference')
      .execute();
    const growerIds = [...new Set(contracts.map((c) => c.grower_id))];
    const [growers, debts, balance] = await Promise.all([
      growerIds.length
        ? this.db
            .selectFrom('growers as g')
            .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
            .select([
              'g.id',
              'g.reference',
              'u.firstname',
              'u.lastname',
              'u.phone',
              'g.contact_phone',
              'u.momo_account_number',
            ])
            .where('g.id', 'in', growerIds)
            .orderBy('g.reference')
            .execute()
        : [],
      growerIds.length
        ? this.db
            .selectFrom('grower_debts')
            .select([
              'id',
              'kind',
              'creditor_user_id',
              'debtor_grower_id',
              'principal',
              'recovered',
              'opened_at',
            ])
            .where('debtor_grower_id', 'in', growerIds)
            .whereRef('recovered', '<', 'principal')
            .execute()
        : [],
      this.db
        .selectFrom('wallet_balances')
        .select('available_balance')
        .where('owner_user_id', '=', user.id)
        .executeTakeFirst(),
    ]);
    const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : String(d));
    return {
      issuedAt: this.clock().toISOString(),
      aggregatorUserId: user.id,
      available: Number(balance?.available_balance ?? 0),
      growers: growers.map((g) => ({
        id: g.id,
        reference: g.reference,
        firstname: g.firstname ?? '',
        lastname: g.lastname ?? '',
        phoneChecks: [
          ...new Set(
            [g.phone, g.contact_phone]
              .map((p) => (p ? phoneCheckOf(g.id, p) : null))
              .filter((c): c is string => c !== null),
          ),
        ],
        hasMobileMoney: Boolean(g.momo_account_number?.trim()),
        contracts: contracts
          .filter((c) => c.grower_id === g.id)
          .map((c) => ({
            id: c.id,
            reference: c.reference,
            quantityKg: Number(c.quantity_kg),
            amount: Number(c.amount),
            deliveryDate: String(c.delivery_date).slice(0, 10),
          })),
        debts: debts
          .filter((d) => d.debtor_grower_id === g.id)
          .map((d) => ({
            id: d.id,
            kind: d.kind,
            creditorUserId: d.creditor_user_id,
            outstanding: Number(d.principal) - Number(d.recovered),
            openedAt: iso(d.opened_at),
          })),
      })),
    };
  }

  private step(user: SignedInUser, weighing: Weighing) {
    if (!Number.isSafeInteger(weighing.kilograms) || weighing.kilograms <= 0) {
      throw new ValidationError(COLLECTION_MESSAGES.kilograms, {
        fields: { kilograms: COLLECTION_MESSAGES.kilograms },
      });
    }
    const weighedOn = weighing.weighedOn ?? beninDay(this.clock());
    return {
      weighedOn,
      step: {
        actor: { userId: user.id, role: user.role_code },
        delivery: {
          deliveredKg: weighing.kilograms,
          deliveredOn: weighedOn,
          grade: weighing.grade,
        },
      },
    };
  }

  /** The figures confirm would settle now (nothing written). */
  async preview(user: SignedInUser, weighing: Weighing): Promise<WeighingAnswer> {
    const { weighedOn, step } = this.step(user, weighing);
    const outcome = await this.settler.weigh(weighing.contractId, { ...step, dryRun: true });
    return { ...outcome, grade: weighing.grade, weighedOn, payoutQueued: false };
  }

  /**
   * Records and settles the weighing in one command, then queues the payout's job (a replay
   * queues nothing twice: the job is keyed by the payout; a process dying in between is
   * covered by the wallet runner's recovery of PENDING withdrawals).
   */
  async confirm(
    user: SignedInUser,
    weighing: Weighing,
    idempotencyKey: string,
  ): Promise<WeighingAnswer> {
    const { weighedOn, step } = this.step(user, weighing);
    const outcome = await this.settler.weigh(weighing.contractId, {
      ...step,
      idempotency: {
        key: `${user.id}:contracts.weigh:${idempotencyKey}`,
        fingerprint: requestFingerprint('contracts.weigh', { ...weighing, weighedOn }),
      },
    });
    if (outcome.payoutId) await schedulePayoutJobs(this.db, [outcome.payoutId]);
    return {
      ...outcome,
      grade: weighing.grade,
      weighedOn,
      payoutQueued: outcome.payoutId !== null,
    };
  }

  /**
   * The harvest forecast of the aggregator's cluster (harvest.ts): its growers' plots, and
   * the aggregator's open contracts (PENDING, CONFIRMED), per buying centre (the grower's
   * commune) and week, from this week over `weeks` weeks.
   */
  async harvestForecast(user: SignedInUser, weeks: number): Promise<ForecastRow[]> {
    if (!user.cluster_id) throw new ForbiddenError(COLLECTION_MESSAGES.noCluster);
    const centre = sql<string>`coalesce(cm.name, g.commune_code)`;
    const plots = await this.db
      .selectFrom('plots as p')
      .innerJoin('growers as g', 'g.id', 'p.grower_id')
      .leftJoin('communes as cm', 'cm.code', 'g.commune_code')
      .select(['p.id', 'p.tif_date', 'p.estimated_production', centre.as('centre')])
      .where('g.cluster_id', '=', user.cluster_id)
      .where('g.deactivated_at', 'is', null)
      .where('p.tif_date', 'is not', null)
      .execute();
    const contracts = await this.db
      .selectFrom('delivery_contracts as c')
      .innerJoin('growers as g', 'g.id', 'c.grower_id')
      .leftJoin('communes as cm', 'cm.code', 'g.commune_code')
      .leftJoin('plots as p', 'p.id', 'c.plot_id')
      .select(['c.plot_id', 'c.quantity_kg', 'c.delivery_date', 'p.tif_date', centre.as('centre')])
      .where('c.aggregator_user_id', '=', user.id)
      .where('c.status', 'in', ['PENDING', 'CONFIRMED'])
      .execute();
    const day = (d: string | Date | null) =>
      d === null ? null : typeof d === 'string' ? d.slice(0, 10) : beninDay(d);
    const tonnesToKgExact = (t: string | null) =>
      t === null ? null : Math.round(Number(t) * 1000);
    const tifOf = new Map<string, string | null>(plots.map((p) => [p.id, day(p.tif_date)]));
    return forecastHarvest({
      from: beninDay(this.clock()),
      weeks,
      plots: [
        ...plots.map((p) => ({
          plotId: p.id,
          centre: p.centre,
          tifDate: day(p.tif_date),
          estimatedKg: tonnesToKgExact(p.estimated_production),
        })),
        // A contracted plot of another cluster's grower still lands in its harvest week.
        ...contracts
          .filter((c) => !tifOf.has(c.plot_id) && c.tif_date !== null)
          .map((c) => ({
            plotId: c.plot_id,
            centre: c.centre,
            tifDate: day(c.tif_date),
            estimatedKg: 0,
          })),
      ],
      contracts: contracts.map((c) => ({
        plotId: c.plot_id,
        centre: c.centre,
        quantityKg: Number(c.quantity_kg),
        deliveryDate: day(c.delivery_date as string | Date)!,
      })),
    });
  }
}
