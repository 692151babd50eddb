import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { applyPush, refresh } from './apply-push.js';
import { parsePush, type PushMessage } from './invalidations.js';

const push = (raw: object): PushMessage => parsePush(JSON.stringify(raw))!;

/** A query function whose answers the test gives, one per call, in order. */
function controlledReads<T>() {
  const answers: ((value: T) => void)[] = [];
  const queryFn = vi.fn(() => new Promise<T>((resolve) => answers.push(resolve)));
  return { answers, queryFn };
}

/** Lets the query cache deliver what it has queued (its notifications go out on a timer). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a push while a query is being fetched', () => {
  it('marks a prefetch under way stale once it has answered (no screen shows it yet)', async () => {
    const client = new QueryClient();
    const { answers, queryFn } = controlledReads<string>();
    const key = ['contracts', 'delivery', 'list'];
    const prefetched = client.prefetchQuery({ queryKey: key, queryFn, staleTime: 60_000 });
    try {
      await vi.waitFor(() => expect(answers).toHaveLength(1));
      applyPush(
        client,
        push({ type: 'contracts.updated', data: { contractId: 'C1', status: 'X' } }),
      );
      answers[0]!('read before the change');
      await prefetched;
      // Fresh for a minute otherwise: the screen that mounts it would show the old answer.
      await vi.waitFor(() => expect(client.getQueryState(key)?.isInvalidated).toBe(true));
    } finally {
      client.clear();
    }
  });

  it("refetches after the socket's reconnection a shown query still on its first read", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { answers, queryFn } = controlledReads<string>();
    const observer = new QueryObserver(client, { queryKey: ['seasons', 'list'], queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    try {
      await vi.waitFor(() => expect(answers).toHaveLength(1));
      refresh(client);
      answers[0]!('before');
      await vi.waitFor(() => expect(answers).toHaveLength(2));
      answers[1]!('after');
      await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('after'));
    } finally {
      unsubscribe();
      client.clear();
    }
  });

  it('restarts a shown query that has data at once, and reads it only once more', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { answers, queryFn } = controlledReads<string>();
    const observer = new QueryObserver(client, { queryKey: ['wallet', 'stats'], queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    try {
      await vi.waitFor(() => expect(answers).toHaveLength(1));
      answers[0]!('first');
      await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('first'));
      void observer.refetch();
      await vi.waitFor(() => expect(answers).toHaveLength(2));
      applyPush(client, push({ type: 'wallet.updated', data: null }));
      // TanStack cancels the refetch under way and starts another, read after the push.
      await vi.waitFor(() => expect(answers).toHaveLength(3));
      answers[2]!('after');
      await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('after'));
      await settle();
      expect(queryFn).toHaveBeenCalledTimes(3);
    } finally {
      unsubscribe();
      client.clear();
    }
  });
});
