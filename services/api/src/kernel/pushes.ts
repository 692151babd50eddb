/**
 * The websocket hub's own messages to a socket (realtime/socket.ts): the room it sits in
 * (`ready`, `joined`), the answer to a ping (`pong`), a refusal (`error`) and `resync`: pushes
 * may have been lost (the API's listener on PostgreSQL or Redis reconnected), refetch. They are no
 * context's pushes; the web's typed table (web/src/shared/realtime/invalidations.ts) names
 * exactly these and the push types the modules declare (`ContextModule.pushes`).
 */
export const HUB_MESSAGES = ['ready', 'joined', 'pong', 'error', 'resync'] as const;

export type HubMessageType = (typeof HUB_MESSAGES)[number];
