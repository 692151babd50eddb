import { sql, type Kysely } from 'kysely';
import { defineProjector } from '@filiere/projections';
import type { WalletReadTables } from '../tables.js';
import type { IdentityTables } from '../../identity/index.js';
import { walletPush } from '../pushes.js';
import { asWalletEvent, defined } from './events.js';
import { ROLE } from '../../kernel/roles.js';
import { identityUsers } from '../../identity/index.js';

/** The roles whose open 'Approvisionnements' (admin) list follows every bank supply. */
export const SUPPLY_ADMIN_ROLES = [ROLE.SUPER_ADMIN, ROLE.ADMIN];

/**
 * The users to tell about bank supplies: active super admins and admins. Read from the live
 * `users` table (`public`, whatever schema a rebuild writes to); it only addresses pushes,
 * never the read tables, so a replay's tables do not depend on it.
 */
async function supplyAdmins(trx: Kysely<SupplyTables>): Promise<string[]> {
  const rows = await trx
    .withSchema('public')
    .selectFrom(identityUsers('public').as('u'))
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select('u.id')
    .where('r.code', 'in', SUPPLY_ADMIN_ROLES)
    .where('u.deleted_at', 'is', null)
    .where('u.is_active', '=', true)
    .execute();
  return rows.map((r) => String(r.id));
}

/** Its tables, and identity's users and roles (read from `public` to address pushes). */
type SupplyTables = Pick<WalletReadTables, 'wallet_supplies' | 'wallet_supply_stats'> &
  Pick<IdentityTables, 'users' | 'roles'>;

/**
 * `wallet_supplies`: one row per top-up (INIT → PENDING → SUCCESS | FAILED, with
 * `failure_code` CANCELLED by the payer, REJECTED by a super admin, or EXPIRED: given up by
 * the background check, no payment found within the abandon delay), and
 * `wallet_supply_stats` per user: number of credited supplies, last credited amount and
 * date. The available balance of the stats card is joined from `wallet_balances`.
 * Pushes `supplies.updated` to the owners, and to super admins and admins when a bank
 * supply changed (their validation list); `supply.rejected` `{reference, reason}` to the
 * requester of a rejected bank supply.
 */
export const suppliesProjector = defineProjector<SupplyTables>({
  name: 'wallet-supplies',
  eventTypes: [
    'SupplyInitiated',
    'SupplyMarkedPending',
    'SupplySucceeded',
    'SupplyFailed',
    'SupplyCancelled',
    'SupplyRejected',
  ],
  tables: ['wallet_supplies', 'wallet_supply_stats'],
  async apply(trx, events, ctx) {
    const touched: (string | null)[] = [];
    let bankTouched = false;
    for (const recorded of events) {
      const event = asWalletEvent(recorded);
      const at = recorded.recordedAt;
      switch (event.type) {
        case 'SupplyInitiated': {
          const d = event.data;
          await trx
            .insertInto('wallet_supplies')
            .values({
              reference: d.reference,
              wallet_id: d.walletId,
              owner_user_id: d.ownerUserId,
              method: d.method,
              amount: d.amount,
              bank_code: d.bankCode,
              bank_account_number: d.bankAccountNumber,
              payer_phone: d.payerPhone ?? null,
              status: 'INIT',
              created_at: at,
              updated_at: at,
            })
            .execute();
          await trx
            .insertInto('wallet_supply_stats')
            .values({ user_id: d.ownerUserId, wallet_id: d.walletId, supplies: 0 })
            .onConflict((oc) => oc.column('user_id').doNothing())
            .execute();
          touched.push(d.ownerUserId);
          if (d.method === 'BANK') bankTouched = true;
          break;
        }
        case 'SupplyMarkedPending':
        case 'SupplySucceeded':
        case 'SupplyFailed':
        case 'SupplyCancelled':
        case 'SupplyRejected': {
          const d = event.data;
          const set =
            event.type === 'SupplyMarkedPending'
              ? { status: 'PENDING', updated_at: at }
              : event.type === 'SupplySucceeded'
                ? {
                    status: 'SUCCESS',
                    updated_at: at,
                    provider_transaction_id: event.data.providerTransactionId,
                    validated_by: event.data.validatedBy,
                    // A cancelled supply the provider proves paid is credited after all.
                    failure_code: null,
                    failure_reason: null,
                  }
                : event.type === 'SupplyCancelled'
                  ? { status: 'FAILED', updated_at: at, failure_code: 'CANCELLED' as const }
                  : event.type === 'SupplyRejected'
                    ? {
                        status: 'FAILED',
                        updated_at: at,
                        failure_code: 'REJECTED' as const,
                        failure_reason: event.data.reason,
                      }
                    : {
                        status: 'FAILED',
                        updated_at: at,
                        // Given up by the background check: no payment found in time.
                        failure_code: event.data.expired ? ('EXPIRED' as const) : null,
                        failure_reason: event.data.reason,
                        provider_transaction_id: sql<
                          string | null
                        >`coalesce(${event.data.providerTransactionId}, ${sql.ref('wallet_supplies.provider_transaction_id')})`,
                      };
          const row = await trx
            .updateTable('wallet_supplies')
            .set(set)
            .where('reference', '=', d.reference)
            .returning(['owner_user_id', 'wallet_id', 'amount', 'method'])
            .executeTakeFirst();
          if (!row) break;
          touched.push(row.owner_user_id);
          if (row.method === 'BANK') bankTouched = true;
          if (event.type === 'SupplyRejected') {
            // The requester is told at once (a toast), wherever it is in the app.
            ctx.push(
              walletPush({
                type: 'supply.rejected',
                userIds: [row.owner_user_id],
                data: { reference: d.reference, reason: event.data.reason },
              }),
            );
          }
          if (event.type === 'SupplySucceeded') {
            await trx
              .updateTable('wallet_supply_stats')
              .set({
                supplies: sql`${sql.ref('wallet_supply_stats.supplies')} + 1`,
                last_supply_amount: event.data.amount,
                last_supply_date: at,
              })
              .where('user_id', '=', row.owner_user_id)
              .execute();
          }
          break;
        }
      }
    }
    const userIds = defined(touched);
    if (userIds.length) ctx.push(walletPush({ type: 'supplies.updated', userIds }));
    if (bankTouched) {
      const admins = await supplyAdmins(trx);
      if (admins.length) ctx.push(walletPush({ type: 'supplies.updated', userIds: admins }));
    }
  },
});
