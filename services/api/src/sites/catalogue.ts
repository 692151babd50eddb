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
 * The sites' audit events, one stream per owner (`sites-<userId>`): who added, changed or
 * removed which store or coverage zone, and when. The tables hold the state the API reads;
 * the events are the trail, as the actors' suppliers and clusters keep theirs. Nothing here
 * moves money, so no projector folds them.
 */
const id = z.guid();
const coordinate = z.number();
const point = z.object({ latitude: coordinate, longitude: coordinate });
export const SITE_FIELDS = ['label', 'address', 'latitude', 'longitude'] as const;
export const ZONE_FIELDS = ['name', 'coordinates'] as const;

const schemas = {
  SiteAdded: z.object({
    siteId: id,
    userId: id,
    actorId: id,
    label: z.string(),
    address: z.string(),
    latitude: coordinate,
    longitude: coordinate,
  }),
  SiteUpdated: z.object({
    siteId: id,
    userId: id,
    actorId: id,
    fields: z.array(z.enum(SITE_FIELDS)),
  }),
  SiteDeleted: z.object({ siteId: id, userId: id, actorId: id }),
  ZoneAdded: z.object({
    zoneId: id,
    userId: id,
    actorId: id,
    name: z.string(),
    coordinates: z.array(point),
  }),
  ZoneUpdated: z.object({
    zoneId: id,
    userId: id,
    actorId: id,
    fields: z.array(z.enum(ZONE_FIELDS)),
  }),
  ZoneDeleted: z.object({ zoneId: id, userId: id, actorId: id }),
};

type Schemas = typeof schemas;
export type SitesEvent = {
  [T in keyof Schemas]: { type: T; data: z.infer<Schemas[T]> };
}[keyof Schemas];

export const sitesStreamId = (userId: string) => `sites-${userId}`;

export const sitesStream: StreamType<{ events: number }> = {
  category: 'sites',
  initialState: () => ({ events: 0 }),
  evolve: (state) => ({ events: state.events + 1 }),
};

export const sitesEvents: EventDefinition<string, any>[] = Object.entries(schemas).map(
  ([type, schema]) => defineEvent({ type, version: 1, schema }),
);

/**
 * Appends one event to the owner's stream through the app's command pipeline (its own
 * transaction), called inside the caller's transaction before it commits: a refused append
 * rolls the change back, so no change goes unrecorded (the suppliers' way).
 */
export async function appendSitesEvent(
  commands: CommandPipeline,
  event: SitesEvent,
): Promise<void> {
  const stream = streamRef(sitesStream, sitesStreamId(event.data.userId));
  await handleCommand(commands, {
    streams: { stream },
    metadata: { userId: event.data.actorId },
    decide: () => ({ writes: [{ streamId: stream.id, events: [event] }], result: undefined }),
  });
}
