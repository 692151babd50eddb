import http from 'node:http';

export interface OpenLoopResult {
  sent: number;
  /** False when the backlog passed `maxBacklogSeconds` of requests and sending stopped early. */
  sustained: boolean;
  seconds: number;
  statuses: Record<number, number>;
  errors: number;
  /** Failed requests by error code (ECONNRESET, …). */
  errorCodes: Record<string, number>;
  /** Latency from the request's scheduled time (so queueing counts), ms, sorted. */
  latencies: number[];
}

export interface OpenLoopRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Open-loop load: request i is due at start + i / rate whatever the answers to
 * the earlier ones (no coordinated omission: a slow server gets more requests in
 * flight, not fewer), over keep-alive sockets. Latency counts from the due time. When
 * more than `maxBacklogSeconds` worth of requests are unanswered the server does not
 * sustain the rate: sending stops there (`sustained: false`) rather than queue for minutes.
 */
export async function openLoop(
  base: string,
  rate: number,
  seconds: number,
  request: (i: number) => OpenLoopRequest,
  maxBacklogSeconds = 5,
): Promise<OpenLoopResult> {
  // At most 256 connections: more opened at once overflow the server's accept queue (ECONNRESET);
  // requests beyond wait in the agent, and their latency still counts from their due time.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const url = new URL(base);
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  let errors = 0;
  const errorCodes: Record<string, number> = {};
  let sent = 0;
  let pending = 0;
  let sustained = true;
  const total = Math.round(rate * seconds);
  const started = performance.now();

  const send = (i: number, due: number) => {
    const r = request(i);
    pending++;
    const finish = (status: number | undefined, error?: Error) => {
      pending--;
      latencies.push(performance.now() - due);
      if (status === undefined) {
        errors++;
        const code = (error as { code?: string } | undefined)?.code ?? error?.message ?? '?';
        errorCodes[code] = (errorCodes[code] ?? 0) + 1;
      } else statuses[status] = (statuses[status] ?? 0) + 1;
    };
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: r.method,
        path: r.path,
        headers: r.body ? { ...r.headers, 'content-length': Buffer.byteLength(r.body) } : r.headers,
      },
      (res) => {
        res.resume();
        res.on('end', () => finish(res.statusCode));
        res.on('error', (error) => finish(undefined, error));
      },
    );
    req.on('error', (error) => finish(undefined, error));
    req.end(r.body);
  };

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - started) * rate) / 1000) + 1);
      while (sent < due) {
        send(sent, started + (sent * 1000) / rate);
        sent++;
      }
      if (pending > rate * maxBacklogSeconds) sustained = false;
      if (sent < total && sustained) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  while (pending > 0) await new Promise((r) => setTimeout(r, 5));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { sent, sustained, seconds: elapsed, statuses, errors, errorCodes, latencies };
}
