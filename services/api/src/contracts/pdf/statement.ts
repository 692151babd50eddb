import { sql, type Kysely } from 'kysely';
import type { ProductTables } from '../../kernel/tables.js';
import { beninDay, ForbiddenError, NotFoundError, ValidationError } from '@filiere/platform';
import {
  GROWER_ROUTE_ROLES,
  requireReadableGrower,
  type ActorsTables,
} from '../../actors/index.js';
import type { IdentityTables } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import { advanceReference } from '../../kernel/references.js';
import type { AdvancesTables } from '../advances/tables.js';
import type { DebtKind } from '../domain/index.js';
import { isoDay } from '../queries.js';
import type { ContractsTables } from '../tables.js';
import { signPdfLink } from './links.js';
import type { GrowerCardData } from './card-pdf.js';
import type { GrowerStatementData } from './statement-pdf.js';
import { identityUsers } from '../../identity/index.js';

export type GrowerStatementTables = Pick<ContractsTables, 'delivery_contracts' | 'grower_debts'> &
  AdvancesTables &
  Pick<IdentityTables, 'users' | 'organizations'> &
  Pick<ActorsTables, 'growers'>;

/** Who may ask for a grower's statement (reach is checked on the grower on top). */
export const STATEMENT_ROLES = [
  ROLE.SUPER_ADMIN,
  ROLE.ADMIN,
  ROLE.INDUSTRIAL,
  ROLE.FARMER_ORGANIZATION,
  ROLE.GROWER,
] as const;

/** Who may print a grower's card: whoever reads his page (reach on top), and the grower. */
export const CARD_ROLES = [...GROWER_ROUTE_ROLES.read, ROLE.GROWER] as const;

export const STATEMENT_MESSAGES = {
  notFound: 'Producteur introuvable',
  notYours: 'Ce relevé ne vous appartient pas',
  noGrower: 'Votre compte n’est rattaché à aucun producteur',
  order: 'La date de début doit précéder la date de fin',
  future: 'La date de fin ne peut pas être dans le futur',
  tooLong: 'La période d’un relevé ne peut pas dépasser 3 ans',
} as const;

/** At most three years in one statement (a season is one; the PDF stays readable). */
const MAX_DAYS = 3 * 366;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 24 * 60 * 60 * 1000;
const fullName = (u: { firstname: string; lastname: string }) =>
  `${u.firstname} ${u.lastname}`.trim();

/**
 * The statement's period: `to` defaults to today and `from` to the 1st of January of `to`'s
 * year (Benin days, inclusive). 400 (French, on the field) when reversed, in the future or
 * longer than three years.
 */
export function statementPeriod(
  query: { from?: string | undefined; to?: string | undefined },
  now: Date,
): { from: string; to: string } {
  const today = beninDay(now);
  const to = query.to ?? today;
  const from = query.from ?? `${to.slice(0, 4)}-01-01`;
  if (to > today) {
    throw new ValidationError(STATEMENT_MESSAGES.future, {
      fields: { to: STATEMENT_MESSAGES.future },
    });
  }
  if (from > to) {
    throw new ValidationError(STATEMENT_MESSAGES.order, {
      fields: { from: STATEMENT_MESSAGES.order },
    });
  }
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;
  if (days > MAX_DAYS) {
    throw new ValidationError(STATEMENT_MESSAGES.tooLong, {
      fields: { from: STATEMENT_MESSAGES.tooLong },
    });
  }
  return { from, to };
}

/**
 * A grower's statement (relevé): its delivery contracts of a period, their deliveries, the
 * debts each recovered and the net paid, and the debts still owed — read from the contracts'
 * read tables only.
 */
export class GrowerStatements {
  constructor(
    private readonly db: Kysely<GrowerStatementTables>,
    /** The product's pool, for the actors' grower reach (requireReadableGrower). */
    private readonly productDb: Kysely<ProductTables>,
    private readonly secret: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The grower row of the signed-in grower (404 French when its account has none). */
  async ownGrowerId(user: SignedInUser): Promise<string> {
    const row = await this.db
      .selectFrom('growers')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(STATEMENT_MESSAGES.noGrower);
    return row.id;
  }

  /**
   * `{ url }` of a 10-minute signed link to the grower's statement over the period. The grower
   * its own; the super admin, an admin, the aggregator and the cooperative the growers the
   * grower's page shows them (actors' reach: cluster, cooperative). 404 unknown, 403 out of
   * reach, 400 a bad period.
   */
  async link(
    user: SignedInUser,
    growerId: string,
    query: { from?: string | undefined; to?: string | undefined },
  ): Promise<{ url: string }> {
    const id = await this.reachableGrower(user, growerId, STATEMENT_ROLES);
    const period = statementPeriod(query, this.clock());
    const token = signPdfLink(this.secret, { kind: 'statement', id, ...period }, this.clock());
    return { url: `/api/contracts/pdf/${token}` };
  }

  /**
   * `{ url }` of a 10-minute signed link to the grower's card (his code as text and QR code):
   * the grower his own; whoever reads the grower's page, within its reach (the cluster
   * manager who registers him prints it). 404 unknown, 403 out of reach.
   */
  async cardLink(user: SignedInUser, growerId: string): Promise<{ url: string }> {
    const id = await this.reachableGrower(user, growerId, CARD_ROLES);
    const token = signPdfLink(this.secret, { kind: 'card', id }, this.clock());
    return { url: `/api/contracts/pdf/${token}` };
  }

  /** What the grower's card prints. */
  async cardData(growerId: string): Promise<GrowerCardData> {
    const grower = await this.db
      .selectFrom('growers as g')
      .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
      .leftJoin('organizations as co', 'co.id', 'g.cooperative_id')
      .select(['g.reference', 'u.firstname', 'u.lastname', 'co.denomination as cooperative'])
      .where('g.id', '=', growerId)
      .executeTakeFirst();
    if (!grower) throw new NotFoundError(STATEMENT_MESSAGES.notFound);
    return {
      name: fullName(grower),
      reference: grower.reference,
      cooperative: grower.cooperative,
    };
  }

  /**
   * The grower's id when `user` may have his documents: the grower his own; the other
   * `roles` the growers the grower's page shows them (actors' reach).
   */
  private async reachableGrower(
    user: SignedInUser,
    growerId: string,
    roles: readonly string[],
  ): Promise<string> {
    const id = growerId.toLowerCase();
    if (!UUID.test(id)) throw new NotFoundError(STATEMENT_MESSAGES.notFound);
    const grower = await this.db
      .selectFrom('growers')
      .select(['id', 'user_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!grower) throw new NotFoundError(STATEMENT_MESSAGES.notFound);
    if (user.role_code === ROLE.GROWER) {
      if (grower.user_id !== user.id) throw new ForbiddenError(STATEMENT_MESSAGES.notYours);
    } else if (roles.includes(user.role_code)) {
      await requireReadableGrower(this.productDb, user, id);
    } else {
      throw new ForbiddenError(STATEMENT_MESSAGES.notYours);
    }
    return id;
  }

  /**
   * The growers with activity in a period (Benin days, inclusive): a contract created or
   * delivered, or a debt opened in it — each with its user, for messaging's monthly summary.
   */
  async activeGrowers(period: {
    from: string;
    to: string;
  }): Promise<{ growerId: string; userId: string }[]> {
    const benin = (column: string) =>
      sql<string>`(${sql.ref(column)} at time zone 'Africa/Porto-Novo')::date`;
    return this.db
      .selectFrom('growers as g')
      .select(['g.id as growerId', 'g.user_id as userId'])
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('delivery_contracts as dc')
              .select('dc.id')
              .whereRef('dc.grower_id', '=', 'g.id')
              .where((c) =>
                c.or([
                  c(benin('dc.created_at'), '>=', period.from).and(
                    benin('dc.created_at'),
                    '<=',
                    period.to,
                  ),
                  c('dc.delivered_on', '>=', period.from).and('dc.delivered_on', '<=', period.to),
                ]),
              ),
          ),
          eb.exists(
            eb
              .selectFrom('grower_debts as d')
              .select('d.id')
              .whereRef('d.debtor_grower_id', '=', 'g.id')
              .where(benin('d.opened_at'), '>=', period.from)
              .where(benin('d.opened_at'), '<=', period.to),
          ),
        ]),
      )
      .orderBy('g.id')
      .execute();
  }

  /** What the statement prints (the period as signed in the link). */
  async data(growerId: string, period: { from: string; to: string }): Promise<GrowerStatementData> {
    const grower = await this.db
      .selectFrom('growers as g')
      .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
      .leftJoin('organizations as co', 'co.id', 'g.cooperative_id')
      .select([
        'g.id',
        'g.reference',
        'u.firstname',
        'u.lastname',
        'u.phone',
        'co.denomination as cooperative',
      ])
      .where('g.id', '=', growerId)
      .executeTakeFirst();
    if (!grower) throw new NotFoundError(STATEMENT_MESSAGES.notFound);

    const benin = (column: string) =>
      sql<string>`(${sql.ref(column)} at time zone 'Africa/Porto-Novo')::date`;
    const contracts = await this.db
      .selectFrom('delivery_contracts as dc')
      .innerJoin(identityUsers().as('a'), 'a.id', 'dc.aggregator_user_id')
      .leftJoin('organizations as ao', 'ao.id', 'a.organization_id')
      .select([
        'dc.id',
        'dc.reference',
        'dc.status',
        'dc.quantity_kg',
        'dc.amount',
        'dc.delivery_date',
        'dc.delivered_kg',
        'dc.delivered_on',
        'dc.delivered_amount',
        'dc.recovered_amount',
        'dc.grower_net',
        'dc.created_at',
        'a.firstname',
        'a.lastname',
        'ao.denomination as organization',
      ])
      .where('dc.grower_id', '=', growerId)
      .where((eb) =>
        eb.or([
          eb(benin('dc.created_at'), '>=', period.from).and(
            benin('dc.created_at'),
            '<=',
            period.to,
          ),
          eb('dc.delivered_on', '>=', period.from).and('dc.delivered_on', '<=', period.to),
        ]),
      )
      .orderBy('dc.created_at', 'asc')
      .orderBy('dc.id', 'asc')
      .execute();

    const ids = contracts.map((c) => c.id);
    const recoveries =
      ids.length === 0
        ? []
        : await this.db
            .selectFrom('grower_debt_recoveries as r')
            .innerJoin('grower_debts as d', 'd.id', 'r.debt_id')
            .innerJoin('delivery_contracts as dc', 'dc.id', 'r.contract_id')
            .select([
              'r.amount',
              'r.recovered_at',
              'd.kind',
              'dc.reference as contract_reference',
              'd.id as debt_id',
            ])
            .where('r.contract_id', 'in', ids)
            .orderBy('r.recovered_at', 'asc')
            .orderBy('r.debt_id', 'asc')
            .execute();

    const debts = await this.db
      .selectFrom('grower_debts as d')
      .select(['d.kind', 'd.principal', 'd.recovered', 'd.opened_at', 'd.id as debt_id'])
      .where('d.debtor_grower_id', '=', growerId)
      .where(sql<boolean>`d.recovered < d.principal`)
      .orderBy('d.opened_at', 'asc')
      .orderBy('d.id', 'asc')
      .execute();

    const reference = (kind: string, debtId: string) => advanceReference(kind as DebtKind, debtId);
    const lines = contracts.map((c) => ({
      reference: c.reference,
      status: c.status,
      aggregator: c.organization
        ? `${fullName(c)} (${c.organization})`
        : fullName({ firstname: c.firstname, lastname: c.lastname }),
      createdOn: beninDay(new Date(c.created_at)),
      deliveryDate: isoDay(c.delivery_date),
      quantityKg: Number(c.quantity_kg),
      amount: Number(c.amount),
      deliveredKg: c.delivered_kg === null ? null : Number(c.delivered_kg),
      deliveredOn: c.delivered_on === null ? null : isoDay(c.delivered_on),
      deliveredAmount: c.delivered_amount === null ? null : Number(c.delivered_amount),
      recovered: c.recovered_amount === null ? null : Number(c.recovered_amount),
      growerNet: c.grower_net === null ? null : Number(c.grower_net),
    }));
    const live = lines.filter((l) => l.status !== 'CANCELED');
    const sum = (values: (number | null)[]) => values.reduce<number>((t, v) => t + (v ?? 0), 0);
    return {
      grower: {
        id: grower.id,
        name: fullName(grower),
        reference: grower.reference,
        phone: grower.phone,
        cooperative: grower.cooperative,
      },
      period,
      contracts: lines,
      recoveries: recoveries.map((r) => ({
        reference: reference(r.kind, r.debt_id),
        kind: r.kind,
        contractReference: r.contract_reference,
        recoveredOn: beninDay(new Date(r.recovered_at)),
        amount: Number(r.amount),
      })),
      outstanding: debts.map((d) => ({
        reference: reference(d.kind, d.debt_id),
        kind: d.kind,
        openedOn: beninDay(new Date(d.opened_at)),
        principal: Number(d.principal),
        remaining: Number(d.principal) - Number(d.recovered),
      })),
      totals: {
        contracts: live.length,
        contractedKg: sum(live.map((l) => l.quantityKg)),
        contractedAmount: sum(live.map((l) => l.amount)),
        deliveredKg: sum(live.map((l) => l.deliveredKg)),
        deliveredAmount: sum(live.map((l) => l.deliveredAmount)),
        recovered: sum(recoveries.map((r) => Number(r.amount))),
        netPaid: sum(live.map((l) => (l.status === 'COMPLETED' ? l.growerNet : null))),
        outstanding: sum(debts.map((d) => Number(d.principal) - Number(d.recovered))),
      },
    };
  }
}
