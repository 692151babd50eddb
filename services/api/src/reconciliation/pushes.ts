import type { PushMessage } from '@filiere/projections';

/** Reconciliation's push: a day's close or an exception changed (no data). */
export const RECONCILIATION_PUSHES = ['reconciliation.changed'] as const;
export type ReconciliationPushType = (typeof RECONCILIATION_PUSHES)[number];

export const reconciliationPush = (
  msg: PushMessage & { type: ReconciliationPushType },
): PushMessage => msg;
