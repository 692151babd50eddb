import type { PushMessage } from '@filiere/projections';
import type { BOARD_PUSHES } from './schemas.js';

export type BoardPushType = (typeof BOARD_PUSHES)[number];

/** Checks a push's type against the declaration (`reporting.board`, no data). */
export const boardPush = (msg: PushMessage & { type: BoardPushType }): PushMessage => msg;
