import { sql, type Kysely } from 'kysely';
import { NotFoundError } from '@filiere/platform';
import { identityUsers, type IdentityTables } from '../identity/index.js';
import { ROLE } from '../kernel/roles.js';
import type { ReconciliationTables } from './tables.js';

/** The read side joins identity's users for the names of owners and actors. */
type ReadTables = ReconciliationTables & Pick<IdentityTables, 'users' | 'roles'>;

/** The names of these users (first name and last name), by id. */
async function userNames(db: Kysely<ReadTables>, ids: Iterable<string | null>) {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (!wanted.length) return new Map<string, string>();
  const rows = await db
    .selectFrom(identityUsers().as('u'))
    .select(['u.id', 'u.firstname', 'u.lastname'])
    .where('u.id', 'in', wanted)
    .execute();
  return new Map(rows.map((u) => [u.id, `${u.firstname} ${u.lastname}`.trim()]));
}

/** Who may own an exception: the active super admins and admins, by name. */
export async function listOwners(db: Kysely<ReadTables>) {
  const rows = await db
    .selectFrom(identityUsers().as('u'))
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.firstname', 'u.lastname'])
    .where('r.code', 'in', [ROLE.SUPER_ADMIN, ROLE.ADMIN])
    .where('u.is_active', '=', true)
    .where('u.deleted_at', 'is', null)
    .orderBy('u.lastname')
    .orderBy('u.firstname')
    .orderBy('u.id')
    .execute();
  return rows.map((u) => ({ id: u.id, name: `${u.firstname} ${u.lastname}`.trim() }));
}

export interface DaysQuery {
  source?: string | undefined;
  page: number;
  limit: number;
}

/** Each source's days, newest first, with their figures and their open exceptions. */
export async function listDays(db: Kysely<ReconciliationTables>, q: DaysQuery) {
  let base = db.selectFrom('reconciliation_days as d');
  if (q.source) base = base.where('d.source', '=', q.source);
  const [{ count }] = [
    await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ];
  const rows = await base
    .select([
      'd.source',
      'd.day',
      'd.figures',
      'd.status',
      'd.reconciled_at',
      (eb) =>
        eb
          .selectFrom('reconciliation_exceptions as e')
          .select((x) => x.fn.countAll<number>().as('n'))
          .whereRef('e.source', '=', 'd.source')
          .whereRef('e.day', '=', 'd.day')
          .where('e.status', '=', 'OPEN')
          .as('open_exceptions'),
    ])
    .orderBy('d.day', 'desc')
    .orderBy('d.source')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return {
    count: Number(count),
    data: rows.map((r) => ({
      source: r.source,
      day: r.day,
      figures: r.figures,
      status:
        Number(r.open_exceptions ?? 0) > 0
          ? ('EXCEPTIONS' as const)
          : (r.status as 'RECONCILED' | 'UNRECONCILED'),
      openExceptions: Number(r.open_exceptions ?? 0),
      reconciledAt: r.reconciled_at.toISOString(),
    })),
  };
}

export interface ExceptionsQuery {
  status?: string | undefined;
  source?: string | undefined;
  kind?: string | undefined;
  q?: string | undefined;
  /** An owner's id, or null for the exceptions nobody owns. */
  owner?: string | null | undefined;
  page: number;
  limit: number;
}

const exceptionView = (
  r: {
    exception_id: string;
    kind: string;
    source: string;
    day: string;
    direction: string;
    amount: number;
    difference: number;
    line_key: string | null;
    movement_key: string | null;
    reference: string | null;
    account: string | null;
    status: string;
    owner_user_id: string | null;
    proposed_action: string | null;
    proposed_target: string | null;
    proposed_by: string | null;
    opened_at: Date;
    updated_at: Date;
  },
  names: Map<string, string>,
) => ({
  id: r.exception_id,
  kind: r.kind,
  source: r.source,
  day: r.day,
  direction: r.direction,
  amount: Number(r.amount),
  difference: Number(r.difference),
  lineKey: r.line_key,
  movementKey: r.movement_key,
  reference: r.reference,
  account: r.account,
  status: r.status,
  ownerUserId: r.owner_user_id,
  ownerName: r.owner_user_id === null ? null : (names.get(r.owner_user_id) ?? null),
  proposal:
    r.proposed_action === null
      ? null
      : { action: r.proposed_action, target: r.proposed_target!, proposedBy: r.proposed_by! },
  openedAt: r.opened_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** The exceptions, oldest open first, filtered by state, source, kind and text. */
export async function listExceptions(db: Kysely<ReadTables>, q: ExceptionsQuery) {
  let base = db.selectFrom('reconciliation_exceptions');
  if (q.owner !== undefined) {
    base =
      q.owner === null
        ? base.where('owner_user_id', 'is', null)
        : base.where('owner_user_id', '=', q.owner);
  }
  if (q.status) base = base.where('status', '=', q.status);
  if (q.source) base = base.where('source', '=', q.source);
  if (q.kind) base = base.where('kind', '=', q.kind);
  if (q.q) {
    const like = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([
        eb('reference', 'ilike', like),
        eb('line_key', 'ilike', like),
        eb('movement_key', 'ilike', like),
        eb('account', 'ilike', like),
      ]),
    );
  }
  const { count } = await base
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('day')
    .orderBy('opened_at')
    .orderBy('exception_id')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  const names = await userNames(
    db,
    rows.map((r) => r.owner_user_id),
  );
  return { count: Number(count), data: rows.map((r) => exceptionView(r, names)) };
}

/** One exception and its history (every event, in order). */
export async function getException(db: Kysely<ReadTables>, id: string) {
  const row = await db
    .selectFrom('reconciliation_exceptions')
    .selectAll()
    .where('exception_id', '=', id)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('Écart introuvable');
  const history = await db
    .selectFrom('reconciliation_exception_history')
    .select(['type', 'user_id', 'note', 'owner_user_id', 'at'])
    .where('exception_id', '=', id)
    .orderBy('position')
    .execute();
  const names = await userNames(db, [
    row.owner_user_id,
    ...history.flatMap((h) => [h.user_id, h.owner_user_id]),
  ]);
  return {
    ...exceptionView(row, names),
    linked:
      row.linked_line_key === null
        ? null
        : { lineKey: row.linked_line_key, movementKey: row.linked_movement_key! },
    history: history.map((h) => ({
      type: h.type,
      userId: h.user_id,
      userName: h.user_id === null ? null : (names.get(h.user_id) ?? null),
      note: h.note,
      ownerName: h.owner_user_id === null ? null : (names.get(h.owner_user_id) ?? null),
      at: h.at.toISOString(),
    })),
  };
}

/** The super admin's card: what is still unreconciled, and the oldest open exception. */
export async function reconciliationSummary(db: Kysely<ReconciliationTables>) {
  const open = await db
    .selectFrom('reconciliation_exceptions')
    .select([
      (eb) => eb.fn.countAll<number>().as('count'),
      sql<
        string | null
      >`sum(case when kind = 'AMOUNT_MISMATCH' then abs(difference) else amount end)`.as('amount'),
      (eb) => eb.fn.min('day').as('oldest_day'),
      (eb) => eb.fn.min('opened_at').as('oldest_opened_at'),
    ])
    .where('status', '=', 'OPEN')
    .executeTakeFirstOrThrow();
  return {
    openExceptions: Number(open.count),
    unreconciledAmount: Number(open.amount ?? 0),
    oldestOpenDay: (open.oldest_day as string | null) ?? null,
  };
}
