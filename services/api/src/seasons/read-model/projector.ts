import type { Kysely } from 'kysely';
import type { Projector, RecordedEvent } from '@filiere/projections';
import type { IdentityTables } from '../../identity/index.js';
import { ROLE } from '../../kernel/roles.js';
import { SEASON_EVENT_TYPES, type SeasonEvent } from '../domain/index.js';
import { seasonPush } from '../pushes.js';
import type { SeasonReadTables } from '../tables.js';
import { identityUsers } from '../../identity/index.js';

/** The roles whose 'Saisons' list and season detail follow every season's changes. */
export const SEASON_STAFF_ROLES = [ROLE.SUPER_ADMIN, ROLE.CLUSTER_MANAGER];

/**
 * The users to tell about a season's change: active super admins and cluster managers. Read
 * from the live `users` table (`public`, whatever schema a rebuild writes to); it only
 * addresses pushes, never the read tables, so a replay's rows do not depend on it.
 */
async function seasonStaff(trx: Kysely<IdentityTables>): Promise<string[]> {
  const rows = await trx
    .withSchema('public')
    .selectFrom(identityUsers('public').as('u'))
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select('u.id')
    .where('r.code', 'in', SEASON_STAFF_ROLES)
    .where('u.deleted_at', 'is', null)
    .where('u.is_active', '=', true)
    .execute();
  return rows.map((r) => String(r.id));
}

const SEASON_STREAM = /^season-(\d+)$/;

/**
 * `seasons` and `season_links` from the `season-<id>` streams. Each event updates its row;
 * then, for each season the batch touched, the sums over its live links (PENDING and
 * CONFIRMED: 'Quantité d'ananas (Kg)', 'Montant total à payer'…) and its status are
 * recomputed from `season_links` in the same transaction: a replay (ledger:rebuild/check)
 * gives the same rows. Times come from the events (`recordedAt` or their own fields).
 *
 * The season's status (the admin filter's CREATED 'Nouveau' / ACCEPTED / REJECTED):
 * ACCEPTED once an industrial has accepted, REJECTED when every industrial's invitation
 * expired, CREATED otherwise.
 *
 * Pushes: `seasons.invitation` / `seasons.updated` to the industrial concerned, and
 * `seasons.updated` {seasonId} to the staff (super admins, cluster managers) for each season
 * the batch touched, so their 'Saisons' list and the season's detail follow live.
 */
export const seasonsProjector: Projector = {
  name: 'seasons',
  eventTypes: [...SEASON_EVENT_TYPES],
  tables: ['seasons', 'season_links'],
  async apply(transaction, events: RecordedEvent[], ctx) {
    const trx = transaction as unknown as Kysely<SeasonReadTables>;
    const touched = new Map<number, Date>();
    for (const recorded of events) {
      const match = SEASON_STREAM.exec(recorded.streamId);
      if (!match) continue;
      const seasonId = Number(match[1]);
      const event = { type: recorded.type, data: recorded.data } as SeasonEvent;
      const at = recorded.recordedAt;
      touched.set(seasonId, at);
      switch (event.type) {
        case 'SeasonCreated': {
          const d = event.data;
          await trx
            .insertInto('seasons')
            .values({
              id: seasonId,
              label: d.label,
              from_date: d.from,
              to_date: d.to,
              unit_product_amount: d.unitProductAmount,
              production_index: d.productionIndex,
              quotity: d.quotity,
              fertilizers: JSON.stringify(d.fertilizers),
              created_by: d.createdBy,
              created_at: at,
              updated_at: at,
            })
            .execute();
          break;
        }
        case 'SeasonEdited': {
          const d = event.data;
          await trx
            .updateTable('seasons')
            .set({
              label: d.label,
              from_date: d.from,
              to_date: d.to,
              unit_product_amount: d.unitProductAmount,
              production_index: d.productionIndex,
              quotity: d.quotity,
              fertilizers: JSON.stringify(d.fertilizers),
            })
            .where('id', '=', seasonId)
            .execute();
          for (const r of d.repriced) {
            await trx
              .updateTable('season_links')
              .set({
                quantity: r.quantity,
                production_amount: r.productionAmount,
                fertilizer_amount: r.fertilizerAmount,
                min_supply_amount: r.minSupplyAmount,
                updated_at: at,
              })
              .where('id', '=', r.linkId)
              .execute();
            ctx.push(
              seasonPush({ type: 'seasons.updated', userIds: [r.userId], data: { seasonId } }),
            );
          }
          break;
        }
        case 'SeasonArchived':
          await trx
            .updateTable('seasons')
            .set({ archived: true, is_active: false })
            .where('id', '=', seasonId)
            .execute();
          break;
        case 'SeasonActivated':
          await trx
            .updateTable('seasons')
            .set({ is_active: true })
            .where('id', '=', seasonId)
            .execute();
          break;
        case 'IndustrialAttached': {
          const d = event.data;
          const row = {
            quantity: d.quantity,
            production_amount: d.productionAmount,
            fertilizer_amount: d.fertilizerAmount,
            min_supply_amount: d.minSupplyAmount,
            status: 'PENDING',
            attached_at: d.attachedAt,
            expires_at: d.expiresAt,
            accepted_at: null,
            canceled_at: null,
            updated_at: at,
          };
          await trx
            .insertInto('season_links')
            .values({ id: d.linkId, season_id: seasonId, user_id: d.userId, ...row })
            .onConflict((oc) => oc.column('id').doUpdateSet(row))
            .execute();
          ctx.push(
            seasonPush({
              type: 'seasons.invitation',
              userIds: [d.userId],
              data: { seasonId, linkId: d.linkId },
            }),
          );
          break;
        }
        case 'IndustrialAccepted': {
          const d = event.data;
          await trx
            .updateTable('season_links')
            .set({
              quantity: d.quantity,
              production_amount: d.productionAmount,
              fertilizer_amount: d.fertilizerAmount,
              min_supply_amount: d.minSupplyAmount,
              status: 'CONFIRMED',
              accepted_at: d.acceptedAt,
              updated_at: at,
            })
            .where('id', '=', d.linkId)
            .execute();
          ctx.push(
            seasonPush({ type: 'seasons.updated', userIds: [d.userId], data: { seasonId } }),
          );
          break;
        }
        case 'InvitationExpired': {
          const d = event.data;
          await trx
            .updateTable('season_links')
            .set({ status: 'CANCELED', canceled_at: at, updated_at: at })
            .where('id', '=', d.linkId)
            .execute();
          ctx.push(
            seasonPush({ type: 'seasons.updated', userIds: [d.userId], data: { seasonId } }),
          );
          break;
        }
        case 'IndustrialDetached': {
          const d = event.data;
          await trx.deleteFrom('season_links').where('id', '=', d.linkId).execute();
          ctx.push(
            seasonPush({ type: 'seasons.updated', userIds: [d.userId], data: { seasonId } }),
          );
          break;
        }
      }
    }
    // The sums and status, recomputed through the query builder: the runner's schema
    // (live or a rebuild's scratch schema) applies to it, not to raw table names.
    for (const [seasonId, at] of touched) {
      const links = await trx
        .selectFrom('season_links')
        .select([
          'status',
          'quantity',
          'production_amount',
          'fertilizer_amount',
          'min_supply_amount',
        ])
        .where('season_id', '=', seasonId)
        .execute();
      const live = links.filter((l) => l.status === 'PENDING' || l.status === 'CONFIRMED');
      const sum = (pick: (l: (typeof links)[number]) => number) =>
        live.reduce((total, l) => total + BigInt(pick(l)), 0n).toString();
      const status = links.some((l) => l.status === 'CONFIRMED')
        ? 'ACCEPTED'
        : links.length > 0 && live.length === 0
          ? 'REJECTED'
          : 'CREATED';
      await trx
        .updateTable('seasons')
        .set({
          industrials_count: live.length,
          total_quantity: sum((l) => l.quantity),
          total_production_amount: sum((l) => l.production_amount),
          total_fertilizer_amount: sum((l) => l.fertilizer_amount),
          total_min_supply_amount: sum((l) => l.min_supply_amount),
          status,
          updated_at: at,
        })
        .where('id', '=', seasonId)
        .execute();
    }
    if (touched.size > 0) {
      const staff = await seasonStaff(transaction as unknown as Kysely<IdentityTables>);
      if (staff.length > 0) {
        for (const seasonId of touched.keys()) {
          ctx.push(seasonPush({ type: 'seasons.updated', userIds: staff, data: { seasonId } }));
        }
      }
    }
  },
};
