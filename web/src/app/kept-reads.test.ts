import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { KEPT_READS_KEY } from '../shared/auth/session.js';
import { keepReads, restoreKeptReads } from './kept-reads.js';

/** localStorage's part that the module uses, in memory (these tests run in Node). */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

/** What the wallet's first visit read, then the time for the grouped write to happen. */
async function visitKeeping(storage: ReturnType<typeof memoryStorage>, user: string) {
  const client = new QueryClient();
  const stop = keepReads(client, () => user, storage);
  client.setQueryData(['wallet', 'stats'], { available: 125000 });
  client.setQueryData(['users', 'me'], { id: user });
  await new Promise((resolve) => setTimeout(resolve, 400));
  stop();
}

describe("the wallet's reads kept for a return visit", () => {
  it('shows the same user his last balance at once, stale so that it is asked again', async () => {
    const storage = memoryStorage();
    await visitKeeping(storage, 'user-a');

    const next = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000 } } });
    restoreKeptReads(next, 'user-a', storage);
    expect(next.getQueryData(['wallet', 'stats'])).toEqual({ available: 125000 });
    expect(
      next
        .getQueryCache()
        .find({ queryKey: ['wallet', 'stats'] })
        ?.isStaleByTime(10_000),
    ).toBe(true);
    // Only the wallet's reads are kept.
    expect(next.getQueryData(['users', 'me'])).toBeUndefined();
  });

  it("never shows one user's balance to another, nor after a sign-out removed it", async () => {
    const storage = memoryStorage();
    await visitKeeping(storage, 'user-a');

    const other = new QueryClient();
    restoreKeptReads(other, 'user-b', storage);
    expect(other.getQueryData(['wallet', 'stats'])).toBeUndefined();

    storage.items.delete(KEPT_READS_KEY);
    const signedOut = new QueryClient();
    restoreKeptReads(signedOut, 'user-a', storage);
    expect(signedOut.getQueryData(['wallet', 'stats'])).toBeUndefined();
    restoreKeptReads(signedOut, undefined, storage);
    expect(signedOut.getQueryData(['wallet', 'stats'])).toBeUndefined();
  });
});
