import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/api-error.js';
import {
  memoryStore,
  OfflineQueue,
  retryDelay,
  startSync,
  type PostSender,
  type QueuedPost,
} from './queue.js';

/** A server that applies each idempotency key once and answers a repeat the first answer. */
function server() {
  const applied = new Map<string, unknown>();
  const sends: string[] = [];
  let down = false;
  let refuse: Record<string, ApiError> = {};
  const send: PostSender = async (post: QueuedPost) => {
    sends.push(post.id);
    if (down) throw new NetworkError(false);
    const refusal = refuse[post.id];
    if (refusal) throw refusal;
    if (!applied.has(post.idempotencyKey)) applied.set(post.idempotencyKey, { url: post.url });
    return applied.get(post.idempotencyKey);
  };
  return {
    send,
    applied,
    sends,
    setDown: (value: boolean) => {
      down = value;
    },
    setRefusals: (value: Record<string, ApiError>) => {
      refuse = value;
    },
  };
}

const post = (n: number, owner = 'u1') => ({
  url: `/input-provider/make-delivery/${n}`,
  body: { code: `AGW_00000${n}` },
  idempotencyKey: `key-${n}`,
  label: `DEM-00000${n}`,
  owner,
});

describe('the offline queue', () => {
  it('keeps what was queued offline and sends each once, in order, when the network returns', async () => {
    const api = server();
    const queue = new OfflineQueue(memoryStore(), api.send);
    api.setDown(true);
    for (const n of [1, 2, 3]) await queue.enqueue(post(n));
    const offline = await queue.flush('u1');
    expect(offline).toMatchObject({ sent: [], kept: 3 });
    expect(offline.stoppedBy).toBeInstanceOf(NetworkError);
    // The first failed send stops the flush: the others were not tried.
    expect(api.sends).toEqual(['key-1']);
    expect((await queue.read()).pending.map((p) => p.label)).toEqual([
      'DEM-000001',
      'DEM-000002',
      'DEM-000003',
    ]);
    expect((await queue.read()).pending[0]!.attempts).toBe(1);

    api.setDown(false);
    const back = await queue.flush('u1');
    expect(back.sent.map((p) => p.id)).toEqual(['key-1', 'key-2', 'key-3']);
    expect(back.stoppedBy).toBeNull();
    expect(await queue.read()).toEqual({ pending: [], refused: [] });
    expect([...api.applied.keys()]).toEqual(['key-1', 'key-2', 'key-3']);
  });

  it('the same action queued twice is one item; concurrent flushes send each item once', async () => {
    const api = server();
    const queue = new OfflineQueue(memoryStore(), api.send);
    await queue.enqueue(post(1));
    await queue.enqueue(post(1));
    await queue.enqueue(post(2));
    expect((await queue.read()).pending).toHaveLength(2);
    const [a, b] = await Promise.all([queue.flush('u1'), queue.flush('u1')]);
    expect(a).toBe(b);
    expect(api.sends).toEqual(['key-1', 'key-2']);
  });

  it('a sent item whose answer was lost is sent again with its key and applied once', async () => {
    const api = server();
    let lose = true;
    const queue = new OfflineQueue(memoryStore(), async (p) => {
      const answer = await api.send(p);
      if (lose) {
        lose = false;
        throw new NetworkError(true);
      }
      return answer;
    });
    await queue.enqueue(post(7));
    expect((await queue.flush('u1')).kept).toBe(1);
    expect((await queue.flush('u1')).sent).toHaveLength(1);
    expect(api.sends).toEqual(['key-7', 'key-7']);
    expect(api.applied.size).toBe(1);
  });

  it('a final refusal is kept with the server’s reason until dismissed; the others still go', async () => {
    const api = server();
    const queue = new OfflineQueue(memoryStore(), api.send);
    for (const n of [1, 2, 3]) await queue.enqueue(post(n));
    api.setRefusals({
      'key-2': new ApiError(409, 'Ces intrants ont déjà été livrés', 'ALREADY_DELIVERED'),
    });
    const result = await queue.flush('u1');
    expect(result.sent.map((p) => p.id)).toEqual(['key-1', 'key-3']);
    const state = await queue.read();
    expect(state.pending).toEqual([]);
    expect(state.refused).toMatchObject([
      {
        id: 'key-2',
        label: 'DEM-000002',
        status: 409,
        message: 'Ces intrants ont déjà été livrés',
        reason: 'ALREADY_DELIVERED',
      },
    ]);
    // Flushing again does not send a refused item.
    await queue.flush('u1');
    expect(api.sends.filter((id) => id === 'key-2')).toHaveLength(1);
    await queue.dismiss('key-2');
    expect((await queue.read()).refused).toEqual([]);
  });

  it('401, 408, 429 and 5xx are not final: the item stays for a later flush', async () => {
    for (const status of [401, 408, 429, 500, 503]) {
      const api = server();
      const queue = new OfflineQueue(memoryStore(), api.send);
      await queue.enqueue(post(1));
      api.setRefusals({ 'key-1': new ApiError(status, 'plus tard') });
      expect((await queue.flush('u1')).kept, String(status)).toBe(1);
      expect((await queue.read()).refused, String(status)).toEqual([]);
      api.setRefusals({});
      expect((await queue.flush('u1')).sent, String(status)).toHaveLength(1);
    }
  });

  it('each user’s items go with his own session only', async () => {
    const api = server();
    const queue = new OfflineQueue(memoryStore(), api.send);
    await queue.enqueue(post(1, 'u1'));
    await queue.enqueue(post(2, 'u2'));
    await queue.flush('u2');
    expect(api.sends).toEqual(['key-2']);
    expect((await queue.read()).pending.map((p) => p.owner)).toEqual(['u1']);
  });

  it('listeners hear each change; onSent hears each sent item with its answer', async () => {
    const api = server();
    const queue = new OfflineQueue(memoryStore(), api.send);
    const counts: number[] = [];
    const sent: string[] = [];
    queue.subscribe((s) => counts.push(s.pending.length));
    queue.onSent((p) => sent.push(p.id));
    await queue.enqueue(post(1));
    await queue.enqueue(post(2));
    await queue.flush('u1');
    expect(counts).toEqual([1, 2, 1, 0]);
    expect(sent).toEqual(['key-1', 'key-2']);
  });

  it('backoff doubles from 2 s up to 5 minutes', () => {
    expect([1, 2, 3, 4, 8, 9, 50].map(retryDelay)).toEqual([
      2_000, 4_000, 8_000, 16_000, 256_000, 300_000, 300_000,
    ]);
  });

  it('startSync flushes at once, retries with backoff after a failure, and at once when online', async () => {
    const api = server();
    const queue = new OfflineQueue(memoryStore(), api.send);
    api.setDown(true);
    await queue.enqueue(post(1));
    const target = new EventTarget();
    const scheduled: { run: () => void; ms: number }[] = [];
    const stop = startSync(queue, 'u1', target as unknown as Window, {
      set: (run, ms) => scheduled.push({ run, ms }),
      clear: () => undefined,
    });
    const settle = async () => {
      for (let i = 0; i < 20; i++) await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    };
    await settle();
    expect(scheduled.map((s) => s.ms)).toEqual([2_000]);
    scheduled[0]!.run();
    await settle();
    expect(scheduled.map((s) => s.ms)).toEqual([2_000, 4_000]);
    api.setDown(false);
    target.dispatchEvent(new Event('online'));
    await settle();
    expect((await queue.read()).pending).toEqual([]);
    expect(api.applied.size).toBe(1);
    stop();
  });
});
