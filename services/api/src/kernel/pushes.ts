/**
 * The websocket hub's own messages to a socket (realtime/socket.ts): the room it sits in
 * (`ready`, `joined`), the answer to a ping (`pong`) and a refusal (`error`). They are no
 * context's pushes; the web's typed table (web/src/shared/realtime/invalidations.ts) names
 * exactly these and the push types the modules declare (`ContextModule.pushes`).
 */
export const HUB_MESSAGES = ['ready', 'joined', 'pong', 'error'] as const;

export type HubMessageType = (typeof HUB_MESSAGES)[number];
