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
 * The growers area's audit events, one stream per grower (`grower-<id>`): who registered it,
 * who changed its address, cooperative or contact and how, who added or changed which plot,
 * who banned or reinstated it. The user-level changes (names, phone, NIP, the payout
 * account, the account's (de)activation) are identity's events on `user-<userId>`.
 */
const id = z.guid();
const change = z.object({
  field: z.string(),
  from: z.union([z.string(), z.number(), z.null()]),
  to: z.union([z.string(), z.number(), z.null()]),
});

const schemas = {
  GrowerRegistered: z.object({
    growerId: id,
    userId: id,
    actorId: id,
    reference: z.string(),
    clusterId: id,
    cooperativeId: id.nullable(),
    villageCode: z.string(),
    plotIds: z.array(id),
    /**
     * The registered plots' sown areas (ha), for the reporting board's 'Superficie emblavée';
     * absent on events appended before 2026-11-27.
     */
    plots: z.array(z.object({ plotId: id, areaSown: z.number() })).optional(),
  }),
  GrowerChanged: z.object({ growerId: id, actorId: id, changes: z.array(change) }),
  PlotAdded: z.object({
    growerId: id,
    plotId: id,
    actorId: id,
    productType: z.string(),
    villageCode: z.string(),
    name: z.string(),
    areaSown: z.number(),
  }),
  PlotChanged: z.object({ growerId: id, plotId: id, actorId: id, changes: z.array(change) }),
  GrowerDeactivated: z.object({ growerId: id, actorId: id }),
  GrowerReactivated: z.object({ growerId: id, actorId: id }),
};

type Schemas = typeof schemas;
export type GrowerEvent = {
  [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> };
}[keyof Schemas];
export type FieldChange = z.infer<typeof change>;

export const growerEvent = <K extends keyof Schemas>(
  type: K,
  data: z.infer<Schemas[K]>,
): GrowerEvent => ({ type, data }) as GrowerEvent;

export const growerStreamId = (growerId: string): string => `grower-${growerId}`;

/** Decisions read the tables under a row lock; the stream only counts its events. */
export const growerStream: StreamType<{ events: number }> = {
  category: 'grower',
  initialState: () => ({ events: 0 }),
  evolve: (state) => ({ events: state.events + 1 }),
};

export const growerEvents: EventDefinition<string, any>[] = Object.entries(schemas).map(
  ([type, schema]) => defineEvent({ type, version: 1, schema }),
);

/**
 * Appends a grower's audit events through the command pipeline. Called inside the
 * transaction that wrote the rows, before it commits (as identity's journal does): a refused
 * append rolls the rows back; a failed final COMMIT leaves an event of an attempt, never a
 * change without its event.
 */
export async function appendGrowerEvents(
  commands: CommandPipeline,
  growerId: string,
  actorId: string,
  events: GrowerEvent[],
): Promise<void> {
  if (!events.length) return;
  const stream = streamRef(growerStream, growerStreamId(growerId));
  await handleCommand(commands, {
    streams: { stream },
    metadata: { userId: actorId },
    decide: () => ({ writes: [{ streamId: stream.id, events }], result: undefined }),
  });
}
