import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeConnection, type SocketLike } from './connection.js';
import type { PushMessage } from './invalidations.js';

class FakeSocket implements SocketLike {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  close() {
    this.closed = true;
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
}

describe('realtime connection', () => {
  let sockets: FakeSocket[];
  let token: string | null;
  let messages: PushMessage[];
  let opened: number[];
  let connection: RealtimeConnection;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    sockets = [];
    token = 'T1';
    messages = [];
    opened = [];
    connection = new RealtimeConnection(
      () => token,
      (m) => messages.push(m),
      (socket) => opened.push(socket),
      {
        location: { protocol: 'http:', host: '127.0.0.1:3000' },
        createSocket: (url) => {
          const socket = new FakeSocket(url);
          sockets.push(socket);
          return socket;
        },
      },
    );
  });
  afterEach(() => {
    connection.stop();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('opens /api/ws with the token and hands pushes over once ready', () => {
    connection.start();
    expect(sockets[0]!.url).toBe('ws://127.0.0.1:3000/api/ws?token=T1');
    sockets[0]!.receive({ type: 'ready', data: { room: 'u1' } });
    sockets[0]!.receive({ type: 'wallet.updated', data: null });
    expect(connection.state).toBe('open');
    expect(opened).toEqual([1]);
    expect(messages.map((m) => m.type)).toEqual(['ready', 'wallet.updated']);
  });

  it('reconnects with growing delays after drops, and resets them once ready', () => {
    connection.start();
    sockets[0]!.drop();
    vi.advanceTimersByTime(499);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    sockets[2]!.receive({ type: 'ready' });
    sockets[2]!.drop();
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(4);
    sockets[3]!.receive({ type: 'ready' });
    // Each 'ready' says which socket it is: the third and fourth, after drops.
    expect(opened).toEqual([3, 4]);
  });

  it('after a 4401 close waits for a different token', () => {
    connection.start();
    sockets[0]!.drop(4401);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    token = 'T2';
    vi.advanceTimersByTime(30_000);
    expect(sockets).toHaveLength(2);
    expect(sockets[1]!.url).toContain('token=T2');
  });

  it('does not connect without a token, and stop() closes and stays closed', () => {
    token = null;
    connection.start();
    expect(sockets).toHaveLength(0);
    token = 'T1';
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(1);
    connection.stop();
    expect(sockets[0]!.closed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });
});
