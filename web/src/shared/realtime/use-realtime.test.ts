import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The page's socket state lives in the module: each test has a page of its own. */
const freshPage = async () => {
  vi.resetModules();
  return import('./use-realtime.js');
};

describe("what a socket's 'ready' catches up on", () => {
  let client: QueryClient;
  let reads: number;
  let unsubscribe: () => void;

  beforeEach(async () => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    reads = 0;
    // The wallet's balance as a screen shows it, just read by the page.
    const observer = new QueryObserver(client, {
      queryKey: ['wallet', 'balance'],
      queryFn: () => Promise.resolve(++reads),
    });
    unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe(1));
  });
  afterEach(() => {
    unsubscribe();
    client.clear();
  });

  it("asks nothing again when the page's first socket is ready at its first attempt", async () => {
    const { catchUp } = await freshPage();
    catchUp(client, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(1);
    expect(client.getQueryState(['wallet', 'balance'])?.isInvalidated).toBe(false);
  });

  it('refetches what is shown on a reconnection', async () => {
    const { catchUp } = await freshPage();
    catchUp(client, 1);
    catchUp(client, 2);
    await vi.waitFor(() => expect(reads).toBe(2));
  });

  it("refetches on the page's first socket when it took more than one attempt", async () => {
    const { catchUp } = await freshPage();
    catchUp(client, 3);
    await vi.waitFor(() => expect(reads).toBe(2));
  });

  it('refetches when a new socket of the page is ready (the signed-in area left and back)', async () => {
    const { catchUp } = await freshPage();
    catchUp(client, 1);
    // A new connection counts its sockets from 1 again.
    catchUp(client, 1);
    await vi.waitFor(() => expect(reads).toBe(2));
  });
});
