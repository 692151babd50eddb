import type { Query, QueryClient, QueryFilters } from '@tanstack/react-query';
import { invalidationsFor, type PushMessage } from './invalidations.js';

/**
 * Per query client: the queries a push (or a reconnection) named while a fetch of theirs was
 * under way that invalidateQueries does not restart, to mark stale again once it has answered.
 */
const toRecheck = new WeakMap<QueryClient, Set<Query>>();

function recheckSet(queryClient: QueryClient): Set<Query> {
  let queries = toRecheck.get(queryClient);
  if (queries) return queries;
  const set = new Set<Query>();
  toRecheck.set(queryClient, set);
  queryClient.getQueryCache().subscribe((event) => {
    if (!set.has(event.query)) return;
    if (event.type === 'removed') {
      set.delete(event.query);
      return;
    }
    if (event.type !== 'updated') return;
    if (event.action.type !== 'success' && event.action.type !== 'error') return;
    set.delete(event.query);
    void queryClient.invalidateQueries({ queryKey: event.query.queryKey, exact: true });
  });
  queries = set;
  return queries;
}

/**
 * Marks the queries `filters` match (default: all) stale and refetches the shown ones.
 *
 * invalidateQueries alone loses a push that arrives while a query's fetch is under way, unless
 * the query is shown AND already has data (then TanStack cancels that fetch and starts another).
 * Otherwise it joins the fetch under way — whose answer may have been read before the change
 * the push announces — and that fetch's success clears the stale mark: a screen opened just
 * before a projector's commit would keep its first, empty answer (the 200 sub-contracts of a
 * new LIVRAISON_PARENT). Those queries are marked stale again once their fetch has answered,
 * which refetches them if shown.
 */
export function refresh(queryClient: QueryClient, filters: QueryFilters = {}): void {
  const recheck = recheckSet(queryClient);
  for (const query of queryClient
    .getQueryCache()
    .findAll({ ...filters, fetchStatus: 'fetching' })) {
    if (query.state.data === undefined || !query.isActive()) recheck.add(query);
  }
  void queryClient.invalidateQueries(filters);
}

/** What a push does to the cache: `resync` refreshes every query, others their table's keys. */
export function applyPush(queryClient: QueryClient, message: PushMessage): void {
  if (message.type === 'resync') {
    refresh(queryClient);
    return;
  }
  for (const queryKey of invalidationsFor(message)) refresh(queryClient, { queryKey });
}
