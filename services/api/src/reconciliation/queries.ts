import { sql, type Kysely } from 'kysely';
import { NotFoundError } from '@filiere/platform';
import type { ReconciliationTables } from './tables.js';

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
  page: number;
  limit: number;
}

const exceptionView = (r: {
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
}) => ({
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
  proposal:
    r.proposed_action === null
      ? null
      : { action: r.proposed_action, target: r.proposed_target!, proposedBy: r.proposed_by! },
  openedAt: r.opened_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** The exceptions, oldest open first, filtered by state, source, kind and text. */
export async function listExceptions(db: Kysely<ReconciliationTables>, q: ExceptionsQuery) {
  let base = db.selectFrom('reconciliation_exceptions');
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
  return { count: Number(count), data: rows.map(exceptionView) };
}

/** One exception and its history (every event, in order). */
export async function getException(db: Kysely<ReconciliationTables>, id: string) {
  const row = await db
    .selectFrom('reconciliation_exceptions')
    .selectAll()
    .where('exception_id', '=', id)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('Écart introuvable');
  const history = await db
    .selectFrom('reconciliation_exception_history')
    .select(['type', 'user_id', 'note', 'at'])
    .where('exception_id', '=', id)
    .orderBy('position')
    .execute();
  return {
    ...exceptionView(row),
    linked:
      row.linked_line_key === null
        ? null
        : { lineKey: row.linked_line_key, movementKey: row.linked_movement_key! },
    history: history.map((h) => ({
      type: h.type,
      userId: h.user_id,
      note: h.note,
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
