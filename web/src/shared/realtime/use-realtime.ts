import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { getToken } from '../auth/session.js';
import { applyPush, refresh } from './apply-push.js';
import { RealtimeConnection } from './connection.js';
import type { PushMessage, PushPayloads, PushType } from './invalidations.js';

/** Screens that act on a push itself (a toast), beside the query invalidations. */
const listeners = new Set<(message: PushMessage) => void>();

let shared: { connection: RealtimeConnection; users: number } | null = null;

/** Whether a socket of this page has been ready before: any later 'ready' is a reconnection. */
let pageConnected = false;

/**
 * What a socket's 'ready' catches up on. Pushes sent while no socket listened (a dropped
 * network, a restarted API, a server that cut a socket that missed its ping, the signed-in area
 * left for longer than LINGER_MS) are lost: on a reconnection every screen refetches what it
 * shows (only mounted queries refetch; the others are marked stale). The page's first socket,
 * ready at its first attempt, follows the page's first reads by a round trip: it refetches
 * nothing (the kept reads of a last visit are stale from the start and asked again anyway).
 * A first socket that needed more than one attempt came late: it catches up as a reconnection.
 */
export function catchUp(queryClient: QueryClient, socket: number): void {
  const first = !pageConnected && socket === 1;
  pageConnected = true;
  if (!first) refresh(queryClient);
}

function acquire(queryClient: QueryClient): void {
  if (!shared) {
    const connection = new RealtimeConnection(
      getToken,
      (message) => {
        applyPush(queryClient, message);
        for (const listener of listeners) listener(message);
      },
      (socket) => catchUp(queryClient, socket),
    );
    shared = { connection, users: 0 };
    connection.start();
  }
  shared.users++;
}

/** A screen change unmounts and remounts users: keep the socket through that. */
const LINGER_MS = 2_000;

function release(): void {
  if (!shared) return;
  if (--shared.users > 0) return;
  const current = shared;
  setTimeout(() => {
    if (shared === current && current.users === 0) {
      current.connection.stop();
      shared = null;
    }
  }, LINGER_MS);
}

/**
 * Keeps one websocket open while any component of the signed-in area uses it;
 * pushes invalidate the matching TanStack queries, so screens update without reload.
 */
export function useRealtime(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    acquire(queryClient);
    return release;
  }, [queryClient]);
}

/**
 * Calls `handler` with each push of `type` while the component is mounted (and the shared
 * socket is open: mount `useRealtime` too).
 */
export function usePush<T extends PushType>(
  type: T,
  handler: (data: PushPayloads[T]) => void,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const listener = (message: PushMessage) => {
      if (message.type === type) latest.current(message.data as PushPayloads[T]);
    };
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, [type]);
}
