import type { PushMessage } from '@filiere/projections';

/**
 * Every push type the seasons publish. The module declares this list (index.ts) and the
 * web's typed table (web/src/shared/realtime/invalidations.ts) names exactly the declared
 * types (its test checks it).
 * - `seasons.invitation`: to the industrial attached to a season (the bell: 'Vous avez été
 *   ajouté à la saison').
 * - `seasons.updated`: to the industrial whose link changed (accepted, expired, removed, its
 *   amounts repriced), and to the active super admins and cluster managers for any change of
 *   a season (their 'Saisons' list and the season's detail follow live).
 */
export const SEASON_PUSHES = ['seasons.invitation', 'seasons.updated'] as const;

export type SeasonPushType = (typeof SEASON_PUSHES)[number];

export type SeasonPush = PushMessage & { type: SeasonPushType };

/** Checks a push's type against the declaration. */
export const seasonPush = (msg: SeasonPush): PushMessage => msg;
