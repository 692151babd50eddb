import { z } from 'zod';
import { defineEvent, type EventDefinition, type StreamType } from '@filiere/event-store';

/**
 * The clusters area's audit events, one stream per cluster (`cluster-<id>`): who configured
 * it and what changed (name, aggregator, the cooperatives and growers moved in). The users
 * moved with them get identity's UserClusterChanged on their own streams.
 */
const id = z.guid();

const schemas = {
  ClusterConfigured: z.object({
    clusterId: id,
    actorId: id,
    labelFrom: z.string(),
    labelTo: z.string(),
    industrialFrom: id.nullable(),
    industrialTo: id.nullable(),
    /** Organisation ids of the cooperatives moved into the cluster. */
    cooperativesMovedIn: z.array(id),
    /** Ids of the growers (without cooperative) moved into the cluster. */
    growersMovedIn: z.array(id),
  }),
};

export type ClusterEvent = {
  type: 'ClusterConfigured';
  data: z.infer<typeof schemas.ClusterConfigured>;
};

export const clusterStreamId = (clusterId: string): string => `cluster-${clusterId}`;

/** Decisions read the tables under a row lock; the stream only counts its events. */
export const clusterStream: StreamType<{ events: number }> = {
  category: 'cluster',
  initialState: () => ({ events: 0 }),
  evolve: (state) => ({ events: state.events + 1 }),
};

export const clusterEvents: EventDefinition<string, any>[] = Object.entries(schemas).map(
  ([type, schema]) => defineEvent({ type, version: 1, schema }),
);
