import { setTimeout as sleep } from 'node:timers/promises';
import { product } from '@filiere/api/modules';
import { projectionLag } from '@filiere/projections';
import type { TortureEnvironment } from './environment.js';

export type FaultKind =
  | 'kill-api'
  | 'kill-worker'
  | 'restart-postgres'
  | 'stop-redis'
  | 'provider-timeout'
  | 'provider-500'
  | 'lose-payer-page';

export interface ScheduledFault {
  /** Milliseconds after the load starts. */
  atMs: number;
  kind: FaultKind;
  /** Which API or worker (kill faults). */
  target: number;
}

export interface InjectedFault extends ScheduledFault {
  startedAtMs: number;
  durationMs: number;
  error?: string;
}

// The provider and Redis faults leave retries and catch-up behind them: they come early,
// so that the system has recovered from them when the load stops.
const CYCLE: FaultKind[] = [
  'kill-api',
  'lose-payer-page',
  'provider-500',
  'stop-redis',
  'provider-timeout',
  'kill-worker',
  'restart-postgres',
];

/** Redis stays down this long; the provider misbehaves this long; payers' pages get lost this long. */
export const REDIS_DOWN_MS = 10_000;
export const PROVIDER_WINDOW_MS = 10_000;
export const PAGE_LOST_WINDOW_MS = 10_000;
/** The longest fault (Redis); faults are spaced so that two never overlap. */
const SLOT_MS = 12_000;

/**
 * The fault schedule: the faults in a fixed order, repeated as many times as fit in
 * the load phase (at least once), evenly spread between 8 % and ~85 % of it so that the
 * system runs under load before, between and after them.
 */
export function faultSchedule(loadMs: number): ScheduledFault[] {
  const start = Math.round(loadMs * 0.08);
  const usable = Math.max(loadMs * 0.85 - start, CYCLE.length * SLOT_MS);
  const cycles = Math.max(1, Math.floor(usable / (CYCLE.length * 2 * SLOT_MS)));
  const count = cycles * CYCLE.length;
  const step = Math.max(SLOT_MS, Math.floor(usable / count));
  return Array.from({ length: count }, (_, i) => ({
    atMs: start + i * step,
    kind: CYCLE[i % CYCLE.length]!,
    target: Math.floor(i / CYCLE.length) % 2,
  }));
}

export function describeFault(fault: ScheduledFault): string {
  const at = `t+${(fault.atMs / 1000).toFixed(1)} s`;
  switch (fault.kind) {
    case 'kill-api':
      return `${at}  SIGKILL api-${fault.target + 1}, restart it`;
    case 'kill-worker':
      return `${at}  SIGKILL worker-${fault.target + 1} mid-batch, restart it`;
    case 'restart-postgres':
      return `${at}  PostgreSQL fast shutdown, then start`;
    case 'stop-redis':
      return `${at}  Redis stopped for ${REDIS_DOWN_MS / 1000} s, then started`;
    case 'provider-timeout':
      return `${at}  payment provider hangs (timeouts) for ${PROVIDER_WINDOW_MS / 1000} s`;
    case 'provider-500':
      return `${at}  payment provider answers 500 for ${PROVIDER_WINDOW_MS / 1000} s`;
    case 'lose-payer-page':
      return `${at}  payers' pages lost right after paying (no verify) for ${PAGE_LOST_WINDOW_MS / 1000} s`;
  }
}

/**
 * Runs the schedule against the environment, one fault at a time, each at its time
 * (late when the previous one took longer). Returns what was injected, with its duration.
 */
export async function injectFaults(
  env: TortureEnvironment,
  schedule: ScheduledFault[],
  startedAt: number,
  log: (line: string) => void,
  shouldStop: () => boolean,
): Promise<InjectedFault[]> {
  const injected: InjectedFault[] = [];
  for (const fault of schedule) {
    const wait = startedAt + fault.atMs - Date.now();
    if (wait > 0) await sleep(wait);
    if (shouldStop()) break;
    const t0 = Date.now();
    const record: InjectedFault = { ...fault, startedAtMs: t0 - startedAt, durationMs: 0 };
    try {
      await inject(env, fault);
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    record.durationMs = Date.now() - t0;
    injected.push(record);
    log(
      `fault ${describeFault(fault).replace(/^t\+\S+ s\s+/, '')}: ${record.error ? `FAILED (${record.error})` : 'done'} in ${(record.durationMs / 1000).toFixed(1)} s`,
    );
  }
  return injected;
}

async function inject(env: TortureEnvironment, fault: ScheduledFault): Promise<void> {
  switch (fault.kind) {
    case 'kill-api': {
      const api = env.apis[fault.target % env.apis.length]!;
      await api.kill();
      await api.start();
      return;
    }
    case 'kill-worker': {
      const worker = env.workers[fault.target % env.workers.length]!;
      await untilProjectionsBehind(env);
      await worker.kill();
      await worker.start();
      return;
    }
    case 'restart-postgres':
      await env.restartPostgres(1_000);
      return;
    case 'stop-redis':
      await env.bounceRedis(REDIS_DOWN_MS);
      return;
    case 'lose-payer-page':
      env.payerPagesLost = true;
      await sleep(PAGE_LOST_WINDOW_MS);
      env.payerPagesLost = false;
      return;
    case 'provider-timeout':
    case 'provider-500':
      env.stub.mode = fault.kind === 'provider-timeout' ? 'hang' : 'error500';
      await sleep(PROVIDER_WINDOW_MS);
      env.stub.mode = 'ok';
      env.stub.releaseHanging();
      return;
  }
}

/** Mid-batch: waits (at most 5 s) until a projector is behind the head, so that work is under way. */
async function untilProjectionsBehind(env: TortureEnvironment): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    try {
      const lag = await projectionLag(
        env.db,
        product.projectors.map((p) => p.name),
      );
      if (Object.values(lag.projectors).some((p) => p.lag > 0)) return;
    } catch {
      return;
    }
    await sleep(20);
  }
}
