/** A message the hub at `/api/ws` sends: `{type, data}`. */
export interface PushMessage {
  type: string;
  data?: unknown;
}

type QueryKey = readonly string[];

/**
 * Which cached queries a push makes stale, by the words of its type
 * (`wallet.balance`, `transaction.created`, `supply.verified`, `financing.created`…).
 * Prefix keys: invalidating `['wallet']` refreshes the balance card, the stats and
 * the yearly chart. Control messages (ready, joined, pong, error) invalidate nothing.
 */
export function invalidationsFor(message: PushMessage): QueryKey[] {
  const type = message.type.toLowerCase();
  if (['ready', 'joined', 'pong', 'error'].includes(type)) return [];
  const keys: QueryKey[] = [];
  const add = (key: QueryKey) => {
    if (!keys.some((k) => k.join('/') === key.join('/'))) keys.push(key);
  };
  const has = (...words: string[]) => words.some((w) => type.includes(w));
  if (has('wallet', 'balance', 'transaction', 'transfer', 'debit', 'withdraw', 'refund', 'hold')) {
    add(['wallet']);
    add(['transaction']);
  }
  if (has('supply', 'supplies')) {
    add(['wallet']);
    add(['transaction']);
    add(['supply']);
  }
  if (has('financ')) {
    add(['wallet']);
    add(['transaction']);
    add(['financement']);
  }
  if (has('user', 'inactive')) add(['users']);
  return keys;
}

/** Reconnection delay: 0.5 s doubling to 30 s, with up to 20 % jitter. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(30_000, 500 * 2 ** Math.max(0, attempt));
  return Math.round(base * (1 + 0.2 * random()));
}

/** `ws(s)://host/api/ws?token=…` for the page's origin. */
export function socketUrl(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api/ws?token=${encodeURIComponent(token)}`;
}

export function parsePush(raw: unknown): PushMessage | null {
  if (typeof raw !== 'string') return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (value && typeof value === 'object' && typeof (value as PushMessage).type === 'string') {
      return value as PushMessage;
    }
  } catch {
    /* ignore */
  }
  return null;
}
