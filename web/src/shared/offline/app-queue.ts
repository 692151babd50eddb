import { useEffect, useState } from 'react';
import { command } from '../api/client.js';
import type { IdempotencyKey } from '../api/idempotency.js';
import { indexedDbStore } from './idb-store.js';
import { EMPTY, OfflineQueue, startSync, type OfflineState } from './queue.js';

let instance: OfflineQueue | null = null;

/** The app's one queue, in IndexedDB, sending through the API client with the item's key. */
export function appQueue(): OfflineQueue {
  instance ??= new OfflineQueue(indexedDbStore(), (post) =>
    command<unknown>(post.url, post.idempotencyKey as IdempotencyKey, { body: post.body }),
  );
  return instance;
}

/** The signed-in user's part of the queue, kept up to date. */
export function useOfflineQueue(owner: string | undefined): OfflineState {
  const [state, setState] = useState<OfflineState>(EMPTY);
  useEffect(() => {
    if (!owner) return;
    const queue = appQueue();
    const mine = (s: OfflineState): OfflineState => ({
      pending: s.pending.filter((p) => p.owner === owner),
      refused: s.refused.filter((p) => p.owner === owner),
    });
    let live = true;
    void queue.read().then((s) => live && setState(mine(s)));
    const stop = queue.subscribe((s) => setState(mine(s)));
    return () => {
      live = false;
      stop();
    };
  }, [owner]);
  return state;
}

/** Sends the signed-in user's queue now, when the network returns, and with backoff. */
export function useOfflineSync(owner: string | undefined): void {
  useEffect(() => {
    if (!owner) return;
    return startSync(appQueue(), owner);
  }, [owner]);
}
