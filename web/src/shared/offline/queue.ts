/**
 * The offline queue: POST commands recorded without network, kept on the phone, sent when the
 * network returns. Any screen may use it for a command that the server applies once per
 * `Idempotency-Key` (a delivery by code, a weighing).
 *
 * Contract:
 * - `enqueue({url, body, idempotencyKey, label, owner})` records a POST to `/api{url}` with its
 *   JSON body and key; `label` is what the user reads in 'En attente d'envoi'; `owner` is the
 *   signed-in user's id (a phone shared by two users sends each one's queue with his own
 *   session only). The key is made once, when the user acts, and never changes: however many
 *   times an item is sent (a lost answer, two tabs), the server applies it at most once.
 * - `flush(owner)` sends the owner's items one after the other, oldest first. An item leaves the
 *   queue only when the server answered: 2xx → sent (`onSent` listeners hear it); a final refusal
 *   (4xx other than 401, 408 and 429) → moved to `refused` with the server's French message and
 *   reason, kept until the user dismisses it. No answer (network, time-out), 401, 408, 429 or
 *   5xx stop the flush and keep the item and those after it, for the next flush.
 * - Nothing is lost: an item is removed from `pending` in the same store update that records
 *   its outcome; a reload between sending and that update sends it again with the same key.
 * - Flushes are single-flight in a page, and across tabs where the Web Locks API exists.
 * - `startSync` flushes now, on the browser's `online` event, and after a failure again with an
 *   exponential backoff (`retryDelay`) until the queue is empty.
 */
import { ApiError } from '../api/api-error.js';

export interface QueuedPost {
  /** The item's id: its idempotency key. */
  id: string;
  url: string;
  body: unknown;
  idempotencyKey: string;
  label: string;
  owner: string;
  queuedAt: string;
  /** Sends that got no final answer. */
  attempts: number;
}

export interface RefusedPost extends QueuedPost {
  status: number;
  message: string;
  reason?: string;
  refusedAt: string;
}

export interface OfflineState {
  pending: QueuedPost[];
  refused: RefusedPost[];
}

/** Where the queue lives: read, and update in one atomic step. */
export interface QueueStore {
  read(): Promise<OfflineState>;
  update(change: (state: OfflineState) => OfflineState): Promise<OfflineState>;
}

/** Sends one item; throws `ApiError` for an answer other than 2xx, anything else for none. */
export type PostSender = (post: QueuedPost) => Promise<unknown>;

export const EMPTY: OfflineState = { pending: [], refused: [] };

export function memoryStore(initial: OfflineState = EMPTY): QueueStore {
  let state = initial;
  return {
    read: async () => state,
    update: async (change) => {
      state = change(state);
      return state;
    },
  };
}

/** Whether a refusal is final (the same item sent again would be refused again). */
export function isFinalRefusal(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    ![401, 408, 429].includes(error.status)
  );
}

/** The wait before the n-th retry (n from 1): 2 s, 4 s, 8 s … at most 5 minutes. */
export function retryDelay(attempt: number): number {
  return Math.min(300_000, 1_000 * 2 ** Math.max(1, Math.min(attempt, 20)));
}

export interface FlushResult {
  sent: QueuedPost[];
  refused: RefusedPost[];
  /** Items left for a later flush. */
  kept: number;
  /** Why the flush stopped early (no network, server busy), or null. */
  stoppedBy: unknown;
}

type Listener = (state: OfflineState) => void;
type SentListener = (post: QueuedPost, answer: unknown) => void;

export class OfflineQueue {
  private running: Promise<FlushResult> | null = null;
  private readonly listeners = new Set<Listener>();
  private readonly sentListeners = new Set<SentListener>();

  constructor(
    private readonly store: QueueStore,
    private readonly send: PostSender,
    private readonly lockName = 'filiere-offline-queue',
    private readonly now: () => Date = () => new Date(),
  ) {}

  read(): Promise<OfflineState> {
    return this.store.read();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onSent(listener: SentListener): () => void {
    this.sentListeners.add(listener);
    return () => this.sentListeners.delete(listener);
  }

  private async change(change: (state: OfflineState) => OfflineState): Promise<OfflineState> {
    const state = await this.store.update(change);
    for (const listener of this.listeners) listener(state);
    return state;
  }

  /** Records a POST; an item with the same key already queued is not added twice. */
  async enqueue(post: {
    url: string;
    body: unknown;
    idempotencyKey: string;
    label: string;
    owner: string;
  }): Promise<QueuedPost> {
    const item: QueuedPost = {
      ...post,
      id: post.idempotencyKey,
      queuedAt: this.now().toISOString(),
      attempts: 0,
    };
    await this.change((state) =>
      state.pending.some((p) => p.id === item.id) || state.refused.some((p) => p.id === item.id)
        ? state
        : { ...state, pending: [...state.pending, item] },
    );
    return item;
  }

  /** Removes a refused item the user has read. */
  async dismiss(id: string): Promise<void> {
    await this.change((state) => ({ ...state, refused: state.refused.filter((p) => p.id !== id) }));
  }

  /** Sends the owner's items (see the contract above); one flush at a time. */
  flush(owner: string): Promise<FlushResult> {
    this.running ??= this.exclusive(() => this.flushOnce(owner)).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    return locks ? (locks.request(this.lockName, run) as Promise<T>) : run();
  }

  private async flushOnce(owner: string): Promise<FlushResult> {
    const result: FlushResult = { sent: [], refused: [], kept: 0, stoppedBy: null };
    // Read again before each item: another tab's flush may have sent it meanwhile.
    for (;;) {
      const state = await this.store.read();
      const mine = state.pending.filter((p) => p.owner === owner);
      const next = mine[0];
      if (!next) return result;
      try {
        const answer = await this.send(next);
        await this.change((s) => ({ ...s, pending: s.pending.filter((p) => p.id !== next.id) }));
        result.sent.push(next);
        for (const listener of this.sentListeners) listener(next, answer);
      } catch (error) {
        if (isFinalRefusal(error)) {
          const refused: RefusedPost = {
            ...next,
            status: error.status,
            message: error.message,
            ...(error.reason ? { reason: error.reason } : {}),
            refusedAt: this.now().toISOString(),
          };
          await this.change((s) => ({
            pending: s.pending.filter((p) => p.id !== next.id),
            refused: [...s.refused.filter((p) => p.id !== next.id), refused],
          }));
          result.refused.push(refused);
          continue;
        }
        await this.change((s) => ({
          ...s,
          pending: s.pending.map((p) =>
            p.id === next.id ? { ...p, attempts: p.attempts + 1 } : p,
          ),
        }));
        result.kept = mine.length;
        result.stoppedBy = error;
        return result;
      }
    }
  }
}

/**
 * Flushes the owner's queue now, on each `online` event, and after a failed flush again after
 * `retryDelay` (growing with each failure, reset by a flush that empties the queue or by the
 * network's return). Returns what stops it.
 */
export function startSync(
  queue: OfflineQueue,
  owner: string,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
  timers: {
    set: (run: () => void, ms: number) => unknown;
    clear: (handle: unknown) => void;
  } = {
    set: (run, ms) => setTimeout(run, ms),
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
): () => void {
  let failures = 0;
  let timer: unknown = null;
  let stopped = false;
  const run = async () => {
    if (stopped) return;
    if (timer !== null) timers.clear(timer);
    timer = null;
    const result = await queue.flush(owner).catch((error: unknown) => ({
      sent: [],
      refused: [],
      kept: 1,
      stoppedBy: error,
    }));
    if (stopped) return;
    if (result.stoppedBy === null) {
      failures = 0;
      return;
    }
    failures += 1;
    timer = timers.set(() => void run(), retryDelay(failures));
  };
  const online = () => {
    failures = 0;
    void run();
  };
  target.addEventListener('online', online);
  void run();
  return () => {
    stopped = true;
    target.removeEventListener('online', online);
    if (timer !== null) timers.clear(timer);
  };
}
