import { createStore, get, update } from 'idb-keyval';
import { EMPTY, type OfflineState, type QueueStore } from './queue.js';

/**
 * The queue in IndexedDB (database `filiere-offline`, store `queue`, one key): it survives a
 * reload and the browser's restart. An update reads and writes in one IndexedDB transaction
 * (idb-keyval's `update`), so two tabs never lose each other's items.
 */
export function indexedDbStore(database = 'filiere-offline'): QueueStore {
  const store = createStore(database, 'queue');
  const KEY = 'state';
  return {
    read: async () => (await get<OfflineState>(KEY, store)) ?? EMPTY,
    update: async (change) => {
      let next: OfflineState = EMPTY;
      await update<OfflineState>(
        KEY,
        (old) => {
          next = change(old ?? EMPTY);
          return next;
        },
        store,
      );
      return next;
    },
  };
}
