import { createStore, get, set } from 'idb-keyval';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../../shared/api/client.js';
import { appQueue, useOfflineQueue } from '../../../../shared/offline/app-queue.js';
import type { OfflineState, QueuedPost } from '../../../../shared/offline/queue.js';
import { deliveryKeys } from '../api/deliveries.js';
import type { OfflineRequest } from './code-check.js';

/** The provider's requests to deliver as the phone keeps them, one entry per user. */
export interface DepotDay {
  issuedAt: string;
  data: OfflineRequest[];
}

const depotStore = () => createStore('filiere-depot', 'requests');

/** `GET input-provider/offline-requests`: the provider's requests with their codes' checks. */
export const fetchOfflineRequests = () =>
  api<{ data: OfflineRequest[]; count: number; issuedAt: string }>(
    '/input-provider/offline-requests',
  );

/** The queued POST of a delivery, by request. */
export const deliveryUrl = (requestId: number) => `/input-provider/make-delivery/${requestId}`;
const requestOf = (post: QueuedPost): number | null => {
  const match = /^\/input-provider\/make-delivery\/(\d+)$/.exec(post.url);
  return match ? Number(match[1]) : null;
};

export interface Depot {
  /** The kept requests still to deliver, less those queued or refused. */
  requests: OfflineRequest[];
  issuedAt: string | null;
  loadFailed: boolean;
  queue: OfflineState;
}

/**
 * The depot's state for the provider `owner`: with network, its requests are fetched and kept
 * in IndexedDB; without, the kept ones are read. A delivery the queue sent refreshes the list
 * and the kept requests.
 */
export function useDepot(owner: string | undefined, online: boolean): Depot {
  const queryClient = useQueryClient();
  const queue = useOfflineQueue(owner);
  const kept = useQuery({
    // Under the deliveries' key: a delivery sent, or the list's push, refreshes it too.
    queryKey: [...deliveryKeys.all, 'depot', owner ?? '', online] as const,
    enabled: Boolean(owner),
    retry: false,
    // Offline it reads what the phone kept: it must run without network.
    networkMode: 'always',
    queryFn: async (): Promise<{ day: DepotDay | null; loadFailed: boolean }> => {
      const store = depotStore();
      const before = (await get<DepotDay>(owner!, store).catch(() => undefined)) ?? null;
      if (!online) return { day: before, loadFailed: false };
      try {
        const answer = await fetchOfflineRequests();
        const day = { issuedAt: answer.issuedAt, data: answer.data };
        await set(owner!, day, store);
        return { day, loadFailed: false };
      } catch {
        return { day: before, loadFailed: before === null };
      }
    },
  });

  useEffect(
    () =>
      appQueue().onSent((post) => {
        if (requestOf(post) !== null) {
          void queryClient.invalidateQueries({ queryKey: deliveryKeys.all });
        }
      }),
    [queryClient],
  );

  const day = kept.data?.day ?? null;
  const taken = new Set(
    [...queue.pending, ...queue.refused].map(requestOf).filter((id) => id !== null),
  );
  return {
    requests: (day?.data ?? []).filter((r) => !taken.has(r.id)),
    issuedAt: day?.issuedAt ?? null,
    loadFailed: kept.data?.loadFailed ?? false,
    queue,
  };
}
