import { defineProjector, type RecordedEvent } from '@filiere/projections';
import { REQUEST_EVENT_TYPES, type RequestEvent } from '../domain/events.js';
import { requestPush } from '../pushes.js';
import type { RequestsTables } from '../tables.js';

const REQUEST_STREAM = /^seasonrequest-(\d+)$/;

/**
 * `season_requests` from the `seasonrequest-<id>` streams: filed → CREATED, accepted →
 * CONFIRMED (INPUT: its code and delivery_status CREATED), rejected → REJECTED with the
 * reason, InputDelivered → delivery_status DONE with received_at. Times come from the
 * events, so a replay gives the same rows.
 */
export const seasonRequestsProjector = defineProjector<RequestsTables>({
  name: 'season-requests',
  eventTypes: [...REQUEST_EVENT_TYPES],
  tables: ['season_requests'],
  async apply(trx, events: RecordedEvent[], ctx) {
    for (const recorded of events) {
      const match = REQUEST_STREAM.exec(recorded.streamId);
      if (!match) continue;
      const requestId = Number(match[1]);
      const event = { type: recorded.type, data: recorded.data } as RequestEvent;
      const at = recorded.recordedAt;
      const notify = async (status: string) => {
        const row = await trx
          .selectFrom('season_requests')
          .select([
            'type',
            'grower_user_id',
            'industrial_user_id',
            'sfd_user_id',
            'provider_user_id',
          ])
          .where('id', '=', requestId)
          .executeTakeFirst();
        if (!row) return;
        // The input provider that delivered it follows its deliveries list too.
        const userIds = [
          row.grower_user_id,
          row.industrial_user_id ?? row.sfd_user_id,
          row.provider_user_id,
        ].filter((u): u is string => u !== null);
        ctx.push(
          requestPush({
            type: 'seasons.requestUpdated',
            userIds,
            data: { requestId, type: row.type, status },
          }),
        );
      };
      switch (event.type) {
        case 'GrowerRequestFiled': {
          const d = event.data;
          await trx
            .insertInto('season_requests')
            .values({
              id: requestId,
              reference: d.reference,
              type: d.type,
              status: 'CREATED',
              season_id: d.seasonId,
              link_id: d.linkId,
              industrial_user_id: d.industrialUserId,
              sfd_user_id: d.sfdUserId,
              grower_id: d.growerId,
              grower_user_id: d.growerUserId,
              fertilizer_id: d.fertilizerId,
              quantity_kg: d.quantityKg,
              amount: d.amount,
              filed_by: d.filedBy,
              created_at: d.filedAt,
              updated_at: at,
            })
            .execute();
          const to = d.industrialUserId ?? d.sfdUserId;
          if (to) {
            ctx.push(
              requestPush({
                type: 'seasons.request',
                userIds: [to],
                data: { requestId, type: d.type, seasonId: d.seasonId },
              }),
            );
          }
          break;
        }
        case 'GrowerRequestAccepted': {
          const d = event.data;
          await trx
            .updateTable('season_requests')
            .set({
              status: 'CONFIRMED',
              code: d.code,
              delivery_status: d.code ? 'CREATED' : null,
              debt_id: d.debtId,
              decided_by: d.acceptedBy,
              decided_at: d.acceptedAt,
              updated_at: at,
            })
            .where('id', '=', requestId)
            .execute();
          await notify('CONFIRMED');
          break;
        }
        case 'GrowerRequestRejected': {
          const d = event.data;
          await trx
            .updateTable('season_requests')
            .set({
              status: 'REJECTED',
              reason: d.reason,
              decided_by: d.rejectedBy,
              decided_at: d.rejectedAt,
              updated_at: at,
            })
            .where('id', '=', requestId)
            .execute();
          await notify('REJECTED');
          break;
        }
        case 'InputDelivered': {
          const d = event.data;
          await trx
            .updateTable('season_requests')
            .set({
              delivery_status: 'DONE',
              received_at: d.deliveredAt,
              delivered_by: d.deliveredBy,
              provider_user_id: d.providerUserId,
              assignment_id: d.assignmentId,
              debt_id: d.debtId,
              updated_at: at,
            })
            .where('id', '=', requestId)
            .execute();
          await notify('DELIVERED');
          break;
        }
      }
    }
  },
});
