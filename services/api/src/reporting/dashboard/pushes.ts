import type { PushMessage } from '@filiere/projections';
import type { DASHBOARD_PUSHES } from './schemas.js';

export type DashboardPushType = (typeof DASHBOARD_PUSHES)[number];

/** Checks a push's type against the declaration (`reporting.dashboard`, no data). */
export const dashboardPush = (msg: PushMessage & { type: DashboardPushType }): PushMessage => msg;
