import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

const KEYS = ['wallet', 'transaction', 'supply', 'financement'];

/** Projections usually catch up within a second; the push invalidates too when it arrives. */
const CATCH_UP_MS = [1_000, 3_000];

/**
 * After a command: the balance card, stats, chart and tables reload at once, and
 * again shortly after, in case the read tables had not caught up with the command
 * yet (the websocket push is the main path; this covers a missed or late push).
 */
export function useInvalidateWallet(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const invalidate = () =>
      Promise.all(KEYS.map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
    for (const ms of CATCH_UP_MS) setTimeout(() => void invalidate(), ms);
    await invalidate();
  }, [queryClient]);
}
