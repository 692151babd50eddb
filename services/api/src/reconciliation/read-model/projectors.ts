import type { Kysely } from 'kysely';
import { defineProjector } from '@filiere/projections';
import { identityUsers, type IdentityTables } from '../../identity/index.js';
import { ROLE } from '../../kernel/roles.js';
import type { WalletEvent } from '../../wallet/index.js';
import { lineKey, type ReconciliationEvent } from '../domain/index.js';
import { reconciliationPush } from '../pushes.js';
import type { ReconciliationTables } from '../tables.js';

type Tables = ReconciliationTables & Pick<IdentityTables, 'users' | 'roles'>;

const OWN_EVENTS = [
  'StatementLineRecorded',
  'DayReconciled',
  'ExceptionOpened',
  'ExceptionAssigned',
  'ExceptionLinked',
  'ResolutionProposed',
  'ResolutionRejected',
  'ExceptionResolved',
  'ExceptionClosed',
];

/** Who sees reconciliation: finance (super admin, admins) and the platform's auditor. */
/** Who reads reconciliation: the active super admins and admins, the platform's auditor. */
export const readersQuery = (trx: Kysely<Tables>) =>
  trx
    .withSchema('public')
    .selectFrom(identityUsers('public').as('u'))
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select('u.id')
    .where((eb) =>
      eb.or([
        eb('r.code', 'in', [ROLE.SUPER_ADMIN, ROLE.ADMIN]),
        eb.and([eb('r.code', '=', ROLE.ACCOUNTING), eb('u.organization_id', 'is', null)]),
      ]),
    )
    .where('u.deleted_at', 'is', null)
    .where('u.is_active', '=', true);

/**
 * Statement lines, each day's close and each exception (with its history), from
 * reconciliation's own events.
 */
export const reconciliationProjector = defineProjector<Tables>({
  name: 'reconciliation',
  eventTypes: OWN_EVENTS,
  tables: [
    'reconciliation_lines',
    'reconciliation_days',
    'reconciliation_exceptions',
    'reconciliation_exception_history',
  ],
  async apply(trx, events, ctx) {
    let visible = false;
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as ReconciliationEvent;
      const at = recorded.recordedAt;
      const by = recorded.metadata?.userId ?? null;
      switch (event.type) {
        case 'StatementLineRecorded': {
          const l = event.data.line;
          await trx
            .insertInto('reconciliation_lines')
            .values({
              line_key: lineKey(l),
              source: l.source,
              day: event.data.day,
              provider_reference: l.providerReference,
              reference: l.reference,
              direction: l.direction,
              amount: l.amount,
              account: l.account,
              occurred_at: l.occurredAt,
            })
            .onConflict((oc) => oc.column('line_key').doNothing())
            .execute();
          continue;
        }
        case 'DayReconciled': {
          const f = event.data.figures;
          const row = {
            source: event.data.source,
            day: event.data.day,
            figures: JSON.stringify(f),
            status:
              f.unmatchedProvider + f.unmatchedLedger + f.differences === 0
                ? 'RECONCILED'
                : 'UNRECONCILED',
            reconciled_at: event.data.reconciledAt,
          };
          await trx
            .insertInto('reconciliation_days')
            .values(row)
            .onConflict((oc) =>
              oc.columns(['source', 'day']).doUpdateSet({
                figures: row.figures,
                status: row.status,
                reconciled_at: row.reconciled_at,
              }),
            )
            .execute();
          visible = true;
          continue;
        }
        case 'ExceptionOpened': {
          const d = event.data;
          await trx
            .insertInto('reconciliation_exceptions')
            .values({
              exception_id: d.exceptionId,
              kind: d.kind,
              source: d.source,
              day: d.day,
              direction: d.direction,
              amount: d.amount,
              difference: d.difference,
              line_key: d.lineKey,
              movement_key: d.movementKey,
              reference: d.reference,
              account: d.account,
              status: 'OPEN',
              owner_user_id: null,
              proposed_action: null,
              proposed_target: null,
              proposed_by: null,
              linked_line_key: null,
              linked_movement_key: null,
              opened_at: at,
              updated_at: at,
            })
            .onConflict((oc) => oc.column('exception_id').doNothing())
            .execute();
          break;
        }
        case 'ExceptionAssigned':
          await update(trx, event.data.exceptionId, at, { owner_user_id: event.data.ownerUserId });
          break;
        case 'ExceptionLinked':
          await update(trx, event.data.exceptionId, at, {
            status: 'LINKED',
            linked_line_key: event.data.lineKey,
            linked_movement_key: event.data.movementKey,
            ...NO_PROPOSAL,
          });
          break;
        case 'ResolutionProposed':
          await update(trx, event.data.exceptionId, at, {
            proposed_action: event.data.action,
            proposed_target: event.data.target,
            proposed_by: event.data.proposedBy,
          });
          break;
        case 'ResolutionRejected':
          await update(trx, event.data.exceptionId, at, NO_PROPOSAL);
          break;
        case 'ExceptionResolved':
          await update(trx, event.data.exceptionId, at, { status: 'RESOLVED', ...NO_PROPOSAL });
          break;
        case 'ExceptionClosed':
          await update(trx, event.data.exceptionId, at, { status: 'CLOSED', ...NO_PROPOSAL });
          break;
      }
      await trx
        .insertInto('reconciliation_exception_history')
        .values({
          position: recorded.position,
          exception_id: event.data.exceptionId,
          type: event.type,
          user_id: by,
          note: noteOf(event),
          owner_user_id: event.type === 'ExceptionAssigned' ? event.data.ownerUserId : null,
          at,
        })
        .onConflict((oc) => oc.column('position').doNothing())
        .execute();
      visible = true;
    }
    if (!visible) return;
    const readers = await readersQuery(trx).execute();
    if (readers.length) {
      ctx.push(
        reconciliationPush({ type: 'reconciliation.changed', userIds: readers.map((r) => r.id) }),
      );
    }
  },
});

const NO_PROPOSAL = { proposed_action: null, proposed_target: null, proposed_by: null };

function noteOf(event: ReconciliationEvent): string | null {
  switch (event.type) {
    case 'ExceptionLinked':
    case 'ResolutionProposed':
    case 'ResolutionRejected':
      return event.data.note || null;
    case 'ExceptionClosed':
      return event.data.reason;
    default:
      return null;
  }
}

async function update(
  trx: Kysely<Tables>,
  exceptionId: string,
  at: Date,
  set: Partial<{
    status: string;
    owner_user_id: string | null;
    proposed_action: string | null;
    proposed_target: string | null;
    proposed_by: string | null;
    linked_line_key: string | null;
    linked_movement_key: string | null;
  }>,
): Promise<void> {
  await trx
    .updateTable('reconciliation_exceptions')
    .set({ ...set, updated_at: at })
    .where('exception_id', '=', exceptionId)
    .execute();
}

const WALLET_EVENTS = [
  'SupplyInitiated',
  'SupplyCredited',
  'WithdrawalDebited',
  'WithdrawalCompleted',
  'WithdrawalFailed',
];

/**
 * The ledger's side: each supply (a movement once credited) and each payout (a movement once
 * debited, no longer one once it failed and was refunded), from the wallet's events.
 */
export const reconciliationMovementsProjector = defineProjector<ReconciliationTables>({
  name: 'reconciliation-movements',
  eventTypes: WALLET_EVENTS,
  tables: ['reconciliation_movements'],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as WalletEvent;
      const at = recorded.recordedAt;
      switch (event.type) {
        case 'SupplyInitiated':
          await trx
            .insertInto('reconciliation_movements')
            .values({
              movement_key: `supply:${event.data.reference}`,
              channel: event.data.method === 'BANK' ? 'BANK' : 'PROVIDER',
              kind: 'SUPPLY',
              reference: event.data.reference,
              provider_reference: null,
              direction: 'IN',
              amount: event.data.amount,
              account: event.data.payerPhone ?? null,
              status: 'INIT',
              moved_at: null,
            })
            .onConflict((oc) => oc.column('movement_key').doNothing())
            .execute();
          break;
        case 'SupplyCredited':
          await trx
            .updateTable('reconciliation_movements')
            .set({
              status: 'SUCCESS',
              moved_at: at,
              provider_reference: event.data.providerTransactionId,
            })
            .where('movement_key', '=', `supply:${event.data.reference}`)
            .execute();
          break;
        case 'WithdrawalDebited':
          await trx
            .insertInto('reconciliation_movements')
            .values({
              movement_key: `payout:${event.data.withdrawalId}`,
              channel: event.data.method === 'BANK' ? 'BANK' : 'PROVIDER',
              kind: 'PAYOUT',
              reference: event.data.withdrawalId,
              provider_reference: null,
              direction: 'OUT',
              amount: event.data.amount,
              account: event.data.destination,
              status: 'PENDING',
              moved_at: at,
            })
            .onConflict((oc) => oc.column('movement_key').doNothing())
            .execute();
          break;
        case 'WithdrawalCompleted':
          await trx
            .updateTable('reconciliation_movements')
            .set({ status: 'SUCCESS', provider_reference: event.data.providerId ?? null })
            .where('movement_key', '=', `payout:${event.data.withdrawalId}`)
            .execute();
          break;
        case 'WithdrawalFailed':
          await trx
            .updateTable('reconciliation_movements')
            .set({ status: 'FAILED', moved_at: null })
            .where('movement_key', '=', `payout:${event.data.withdrawalId}`)
            .execute();
          break;
      }
    }
  },
});
