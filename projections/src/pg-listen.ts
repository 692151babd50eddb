import pg from 'pg';

export interface Listener {
  close(): Promise<void>;
}

/**
 * LISTENs on a PostgreSQL channel with its own connection, reconnecting after
 * a loss (with `onReconnect` called, since notifications sent meanwhile are lost).
 */
export function listenChannel(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  opts: { onError?: (error: unknown) => void; onReconnect?: () => void } = {},
): Listener {
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let first = true;
  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({
      connectionString: url,
      application_name: `filiere-listen-${channel}`,
    });
    c.on('notification', (n) => {
      if (n.channel === channel) onMessage(n.payload ?? '');
    });
    c.on('error', (error) => {
      opts.onError?.(error);
      retry(c);
    });
    c.on('end', () => retry(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (closed) {
        await c.end().catch(() => undefined);
        return;
      }
      client = c;
      if (!first) opts.onReconnect?.();
      first = false;
    } catch (error) {
      opts.onError?.(error);
      retry(c);
    }
  };
  const retry = (c: pg.Client) => {
    if (closed || timer || (client && client !== c)) return;
    client = undefined;
    first = false;
    c.end().catch(() => undefined);
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, 1000);
  };
  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
