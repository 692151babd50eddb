import type { PushMessage } from '@filiere/projections';

/**
 * The pushes of growers' requests (declared by the area, mapped by the web's invalidations):
 * - `seasons.request`: a new request → its industrial (INPUT, PINEAPLE: the spec's "new
 *   fertilizer request") or its SFD (SOCIAL); data {requestId, type, seasonId}.
 * - `seasons.requestUpdated`: a request accepted, rejected or delivered → the grower's user and
 *   the industrial or SFD; data {requestId, type, status}.
 */
export const REQUEST_PUSHES = ['seasons.request', 'seasons.requestUpdated'] as const;

export type RequestPushType = (typeof REQUEST_PUSHES)[number];

export const requestPush = (msg: PushMessage & { type: RequestPushType }): PushMessage => msg;
