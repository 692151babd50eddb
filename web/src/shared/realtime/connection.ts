import { backoffDelay, parsePush, socketUrl, type PushMessage } from './invalidations.js';

/** Close code the hub uses for a missing or invalid access token. */
const CLOSE_UNAUTHENTICATED = 4401;

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'closed';

/** The part of a WebSocket the connection uses (a fake in unit tests). */
export interface SocketLike {
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  close(code?: number, reason?: string): void;
}

export interface ConnectionOptions {
  createSocket?: (url: string) => SocketLike;
  location?: { protocol: string; host: string };
}

/**
 * One websocket to `/api/ws` with the access token, reconnecting with backoff.
 * After a 4401 close it waits for a different token before trying again.
 */
export class RealtimeConnection {
  private socket: SocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private stopped = true;
  private refusedToken: string | null = null;
  /** Sockets opened since construction: `onOpen` is told which one became ready. */
  private sockets = 0;
  state: ConnectionState = 'idle';

  constructor(
    private readonly getToken: () => string | null,
    private readonly onMessage: (message: PushMessage) => void,
    /** On each 'ready'; `socket` counts the sockets this connection has opened (1: its first). */
    private readonly onOpen: (socket: number) => void = () => {},
    private readonly options: ConnectionOptions = {},
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'bye');
    this.state = 'closed';
  }

  private connect(): void {
    if (this.stopped) return;
    const token = this.getToken();
    if (!token || token === this.refusedToken) {
      this.schedule();
      return;
    }
    this.state = 'connecting';
    const url = socketUrl(this.options.location ?? window.location, token);
    const socket: SocketLike = this.options.createSocket
      ? this.options.createSocket(url)
      : (new WebSocket(url) as unknown as SocketLike);
    this.socket = socket;
    const number = ++this.sockets;
    socket.onmessage = (event) => {
      const message = parsePush(event.data);
      if (!message) return;
      if (message.type === 'ready') {
        this.attempt = 0;
        this.state = 'open';
        this.onOpen(number);
      }
      this.onMessage(message);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.state = 'closed';
      if (event.code === CLOSE_UNAUTHENTICATED) this.refusedToken = token;
      this.schedule();
    };
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, backoffDelay(this.attempt++));
  }
}
