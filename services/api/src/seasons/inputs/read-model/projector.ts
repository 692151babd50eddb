import { defineProjector, type PushMessage, type RecordedEvent } from '@filiere/projections';
import { INPUT_EVENT_TYPES, type InputEvent } from '../domain/index.js';
import type { InputsTables } from '../tables.js';

const ASSIGNMENT_STREAM = /^seasoninput-(\d+)$/;

/**
 * The push of this area: `seasons.inputs` {seasonId} → the industrial and the input provider
 * of an assignment made, banned or paid by a delivery, after the row is written, so their
 * providers' list and deliveries follow live (the web refetches ['season-inputs']) instead of
 * relying on the one refetch after the POST, which a lagging projection answers stale.
 */
export const INPUT_PUSHES = ['seasons.inputs'] as const;

/** What the deliveries record on a request's stream and this table counts (requests' catalogue). */
export const INPUT_DELIVERED = 'InputDelivered';

/**
 * `season_input_providers` from the `seasoninput-<id>` streams, and each `InputDelivered`
 * (a request's stream) adding its amount to the assignment that paid it. Times come from
 * the events: a replay gives the same rows.
 */
export const inputProvidersProjector = defineProjector<InputsTables>({
  name: 'season-inputs',
  eventTypes: [...INPUT_EVENT_TYPES, INPUT_DELIVERED],
  tables: ['season_input_providers'],
  async apply(trx, events: RecordedEvent[], ctx) {
    const touched = new Set<number>();
    for (const recorded of events) {
      const at = recorded.recordedAt;
      if (recorded.type === INPUT_DELIVERED) {
        const d = recorded.data as { assignmentId: number; amount: number };
        await trx
          .updateTable('season_input_providers')
          .set((eb) => ({
            delivered_amount: eb('delivered_amount', '+', d.amount),
            updated_at: at,
          }))
          .where('id', '=', d.assignmentId)
          .execute();
        touched.add(d.assignmentId);
        continue;
      }
      if (!ASSIGNMENT_STREAM.test(recorded.streamId)) continue;
      const event = { type: recorded.type, data: recorded.data } as InputEvent;
      switch (event.type) {
        case 'InputProviderAssigned': {
          const d = event.data;
          await trx
            .insertInto('season_input_providers')
            .values({
              id: d.assignmentId,
              season_id: d.seasonId,
              link_id: d.linkId,
              industrial_user_id: d.industrialUserId,
              provider_user_id: d.providerUserId,
              fertilizer_id: d.fertilizerId,
              type_id: d.typeId,
              quantity_kg: d.quantityKg,
              unit_amount: d.unitAmount,
              amount: d.amount,
              hold_id: d.holdId,
              status: 'ACTIVE',
              created_at: d.assignedAt,
              updated_at: at,
            })
            .execute();
          touched.add(d.assignmentId);
          break;
        }
        case 'InputProviderBanned':
          await trx
            .updateTable('season_input_providers')
            .set({ status: 'BANNED', released_amount: event.data.released, updated_at: at })
            .where('id', '=', event.data.assignmentId)
            .execute();
          touched.add(event.data.assignmentId);
          break;
      }
    }
    if (!touched.size) return;
    const rows = await trx
      .selectFrom('season_input_providers')
      .select(['season_id', 'industrial_user_id', 'provider_user_id'])
      .where('id', 'in', [...touched])
      .execute();
    const bySeason = new Map<number, Set<string>>();
    for (const r of rows) {
      const users = bySeason.get(r.season_id) ?? new Set<string>();
      for (const u of [r.industrial_user_id, r.provider_user_id]) if (u) users.add(u);
      bySeason.set(r.season_id, users);
    }
    for (const [seasonId, users] of bySeason) {
      const push: PushMessage = { type: 'seasons.inputs', userIds: [...users], data: { seasonId } };
      ctx.push(push);
    }
  },
});
