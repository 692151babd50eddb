import type { PushMessage } from '@filiere/projections';

/**
 * The push types the contracts publish: `contracts.updated` {contractId, status} to the
 * contract's aggregator, grower and grower's cooperative's user when a contract changes (its
 * projector; without data after a large batch), without data to the creditors of the debts (advances) opened or recovered,
 * to a LIVRAISON_PARENT's aggregator, without data, once the parent is projected
 * (batches/read-model/projector.ts: the parent and its subs are two projections), and
 * `contracts.run` {runId, contractId, status, done, total} to the aggregator as a run
 * progresses (the run's runner). The web's table (web/src/shared/realtime/invalidations.ts)
 * names exactly these.
 */
export const CONTRACT_PUSHES = ['contracts.updated', 'contracts.run'] as const;

export type ContractPushType = (typeof CONTRACT_PUSHES)[number];

/** Checks a push's type against the declaration. */
export const contractsPush = (msg: PushMessage & { type: ContractPushType }): PushMessage => msg;
