import { z } from 'zod';
import {
  defineEvent,
  handleCommand,
  streamRef,
  type CommandPipeline,
  type EventDefinition,
  type StreamType,
} from '@filiere/event-store';

/**
 * The suppliers area's audit events, one stream per supplier (`supplier-<id>`): who changed
 * what and when on the supplier's own rows (organisation, RCCM, IFU, delivery points,
 * fertilizers, deactivation). Changes of the representative's account (registration, names,
 * phone, e-mail, activation) are identity's events on its `user-<id>` stream.
 */
const id = z.guid();
export const SUPPLIER_FIELDS = ['denomination', 'rccm', 'ifu', 'locations', 'fertilizers'] as const;

const schemas = {
  SupplierRegistered: z.object({
    supplierId: id,
    actorId: id,
    userId: id,
    clusterId: id.nullable(),
    reference: z.string(),
    fertilizerIds: z.array(z.number()),
    deliveryPoints: z.number(),
  }),
  SupplierUpdated: z.object({
    supplierId: id,
    actorId: id,
    fields: z.array(z.enum(SUPPLIER_FIELDS)),
  }),
  SupplierDeactivated: z.object({ supplierId: id, actorId: id }),
  SupplierReactivated: z.object({ supplierId: id, actorId: id }),
};

type Schemas = typeof schemas;
export type SupplierEvent = {
  [T in keyof Schemas]: { type: T; data: z.infer<Schemas[T]> };
}[keyof Schemas];

export const supplierStreamId = (supplierId: string) => `supplier-${supplierId}`;

export const supplierStream: StreamType<{ events: number }> = {
  category: 'supplier',
  initialState: () => ({ events: 0 }),
  evolve: (state) => ({ events: state.events + 1 }),
};

export const supplierEvents: EventDefinition<string, any>[] = Object.entries(schemas).map(
  ([type, schema]) => defineEvent({ type, version: 1, schema }),
);

/**
 * Appends one event to the supplier's stream through the app's command pipeline (its own
 * transaction). Called inside the caller's transaction before it commits: a refused append
 * rolls the change back, so no change goes unrecorded.
 */
export async function appendSupplierEvent(
  commands: CommandPipeline,
  event: SupplierEvent,
): Promise<void> {
  const stream = streamRef(supplierStream, supplierStreamId(event.data.supplierId));
  await handleCommand(commands, {
    streams: { stream },
    metadata: { userId: event.data.actorId },
    decide: () => ({ writes: [{ streamId: stream.id, events: [event] }], result: undefined }),
  });
}
