import { dehydrate, hydrate, type Query, type QueryClient } from '@tanstack/react-query';
import { KEPT_READS_KEY } from '../shared/auth/session.js';

/**
 * The wallet's reads of the last visit, kept in this browser for the signed-in user: a return
 * visit shows its balance at once (a 3G round trip costs 300 ms and more) while every shown
 * read is asked again, the kept answers being stale from the start. Kept under the token's
 * subject, never shown to another user; signing out removes them (`clearSession`).
 */
const KEPT = (query: Query) => query.queryKey[0] === 'wallet' && query.state.status === 'success';

/** Writes are grouped: a screen's reads answer within a few hundred milliseconds. */
const WRITE_DELAY_MS = 300;

interface Kept {
  user: string;
  state: ReturnType<typeof dehydrate>;
}

/** Puts the kept reads of `user` into `queryClient`, stale; none when they are another's. */
export function restoreKeptReads(
  queryClient: QueryClient,
  user: string | undefined,
  storage: Pick<Storage, 'getItem'> = localStorage,
): void {
  if (!user) return;
  let kept: Kept | null;
  try {
    kept = JSON.parse(storage.getItem(KEPT_READS_KEY) ?? 'null') as Kept | null;
  } catch {
    return;
  }
  if (!kept || kept.user !== user || !Array.isArray(kept.state?.queries)) return;
  for (const query of kept.state.queries) {
    query.state.dataUpdatedAt = 0;
    query.state.isInvalidated = true;
  }
  hydrate(queryClient, { mutations: [], queries: kept.state.queries });
}

/**
 * Keeps the wallet's reads of `queryClient` for the user `currentUser()` names (none: nothing
 * is written) whenever they change. Returns the function that stops it.
 */
export function keepReads(
  queryClient: QueryClient,
  currentUser: () => string | undefined,
  storage: Pick<Storage, 'setItem'> = localStorage,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = () => {
    timer = undefined;
    const user = currentUser();
    if (!user) return;
    const kept: Kept = { user, state: dehydrate(queryClient, { shouldDehydrateQuery: KEPT }) };
    try {
      storage.setItem(KEPT_READS_KEY, JSON.stringify(kept));
    } catch {
      // A full storage keeps the previous copy: the next visit waits for the network.
    }
  };
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.query.queryKey[0] !== 'wallet' || timer) return;
    timer = setTimeout(write, WRITE_DELAY_MS);
  });
  return () => {
    unsubscribe();
    clearTimeout(timer);
  };
}
