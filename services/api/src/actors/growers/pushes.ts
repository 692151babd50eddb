import type { PushMessage } from '@filiere/projections';

/**
 * The push types the growers area publishes: a grower or one of its plots was registered,
 * changed, banned or reinstated (data: `{ growerId }`), sent to those who see it in their
 * list. The web's typed table (web/src/shared/realtime) refreshes the growers queries.
 */
export const GROWER_PUSHES = ['actors.grower.changed'] as const;
export type GrowerPushType = (typeof GROWER_PUSHES)[number];

/** A push of the growers area: an undeclared type does not compile. */
export const growerPush = (msg: PushMessage & { type: GrowerPushType }): PushMessage => msg;
