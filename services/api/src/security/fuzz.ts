import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { EventStoreTables } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import type { IdentityTables } from '../identity/index.js';
import { everyRouteArbs, type FuzzRequest } from './fuzz-requests.js';
import { operationsOf, type Operation } from './route-table.js';
import { headPosition, type World } from './world.js';

/** What the fuzzer reads and repairs: the users it revives and the events a refusal must not add. */
type FuzzTables = IdentityTables & EventStoreTables;

export interface FuzzOptions {
  count: number;
  seed: number;
  /** A request slower than this is a hang (default 20 s: the machine is shared). */
  timeoutMs?: number;
  /** Stop at the first failure (default true). */
  stopAtFirst?: boolean;
  /** Only request number `only` of the run (replay). */
  only?: number;
  /** Skip these operations (e.g. the websocket upgrade). */
  exclude?: (op: Operation) => boolean;
  onProgress?: (done: number) => void;
}

export interface FuzzFailure {
  index: number;
  problem: string;
  status?: number;
  body?: string;
  request: FuzzRequest;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  routes: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, Record<string, number>>;
  failures: FuzzFailure[];
  ms: number;
}

/** The request number `index` of the run of `seed`: the same on every replay. */
export function requestAt(arb: fc.Arbitrary<FuzzRequest>, seed: number, index: number) {
  return fc.sample(arb, { seed: (seed + index * 7919) | 0, numRuns: 1 })[0]!;
}

/** Makes the seeded users usable again (the fuzzer may delete or deactivate them). */
async function revive<DB extends FuzzTables>(db: Kysely<DB>, world: World): Promise<void> {
  await narrowDb<FuzzTables>()(db)
    .updateTable('users')
    .set({ deleted_at: null, is_active: true })
    .where(
      'id',
      'in',
      world.actors.map((a) => a.id),
    )
    .execute();
}

/**
 * Sends `count` generated requests over every route of the OpenAPI document, one at a
 * time, and checks each answer: no 5xx, no hang, a message on every 4xx, and no event
 * appended by a refused request.
 */
export async function fuzz<DB extends FuzzTables>(
  app: FastifyInstance,
  db: Kysely<DB>,
  world: World,
  options: FuzzOptions,
): Promise<FuzzReport> {
  const operations = operationsOf(app).filter((op) => !options.exclude?.(op));
  const arbs = everyRouteArbs(operations, world);
  const timeoutMs = options.timeoutMs ?? 20_000;
  const report: FuzzReport = {
    seed: options.seed,
    requests: 0,
    routes: operations.length,
    byStatus: {},
    byRoute: {},
    failures: [],
    ms: 0,
  };
  const started = performance.now();
  const indexes =
    options.only !== undefined
      ? [options.only]
      : Array.from({ length: options.count }, (_, i) => i);
  for (const index of indexes) {
    if (index % 100 === 0) await revive(db, world);
    const request = requestAt(arbs[index % arbs.length]!, options.seed, index);
    const { status, failure } = await sendAndCheck(app, db, request, timeoutMs);
    report.requests++;
    const key = String(status ?? 'no answer');
    report.byStatus[key] = (report.byStatus[key] ?? 0) + 1;
    const route = (report.byRoute[request.route] ??= {});
    route[key] = (route[key] ?? 0) + 1;
    if (failure) {
      report.failures.push({ index, ...failure, request });
      if (options.stopAtFirst !== false) break;
    }
    options.onProgress?.(report.requests);
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

async function sendAndCheck<DB extends FuzzTables>(
  app: FastifyInstance,
  db: Kysely<DB>,
  request: FuzzRequest,
  timeoutMs: number,
): Promise<{ status?: number; failure?: Omit<FuzzFailure, 'index' | 'request'> }> {
  const outcome = await check(app, db, request, timeoutMs);
  if (outcome?.ok) return { status: outcome.status! };
  return { ...(outcome?.status ? { status: outcome.status } : {}), failure: outcome! };
}

async function check<DB extends FuzzTables>(
  app: FastifyInstance,
  db: Kysely<DB>,
  request: FuzzRequest,
  timeoutMs: number,
): Promise<(Omit<FuzzFailure, 'index' | 'request'> & { ok?: true }) | undefined> {
  const before = await headPosition(db);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  let response;
  try {
    response = await Promise.race([
      app.inject({
        method: request.method,
        url: request.url,
        headers: request.headers,
        remoteAddress: request.remoteAddress,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      }),
      timeout,
    ]);
  } catch (error) {
    return { problem: `the request could not be sent: ${String(error)}` };
  } finally {
    clearTimeout(timer);
  }
  if (response === 'timeout') return { problem: `no answer within ${timeoutMs} ms (hang)` };
  const status = response.statusCode;
  const body = response.body.slice(0, 2000);
  if (status >= 500) return { problem: 'server error', status, body };
  if (request.mustRefuse && status < 400) {
    return { problem: `accepted although ${request.mustRefuse}`, status, body };
  }
  if (status >= 400) {
    const type = String(response.headers['content-type'] ?? '');
    if (type.startsWith('text/html')) {
      if (!/<h1|<p/.test(response.body)) return { problem: '4xx page without text', status, body };
    } else {
      let message: unknown;
      try {
        message = (response.json() as { message?: unknown }).message;
      } catch {
        return { problem: '4xx body is not JSON', status, body };
      }
      if (typeof message !== 'string' || message.trim() === '') {
        return { problem: '4xx without a message', status, body };
      }
    }
    const appended = await eventsAfter(db, before);
    if (appended.length) {
      return { problem: `refused request appended events: ${appended.join(', ')}`, status, body };
    }
  }
  return { ok: true, problem: '', status };
}

async function eventsAfter<DB extends FuzzTables>(
  db: Kysely<DB>,
  position: number,
): Promise<string[]> {
  if ((await headPosition(db)) === position) return [];
  const rows = await narrowDb<FuzzTables>()(db)
    .selectFrom('events')
    .select('type')
    .where('position', '>', position)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.type);
}

/** A failing request, printed so that it can be replayed by hand or with `--only`. */
export function describeFailure(report: FuzzReport, failure: FuzzFailure): string {
  const { request } = failure;
  const payload =
    request.payload && request.payload.length > 600
      ? `${request.payload.slice(0, 600)}… (${request.payload.length} chars)`
      : request.payload;
  return [
    `fuzz failure #${failure.index} (seed ${report.seed}): ${failure.problem}`,
    `  ${request.method} ${request.url.slice(0, 600)}`,
    `  caller: ${request.caller}; headers: ${JSON.stringify({ ...request.headers, authorization: request.headers.authorization ? '…' : undefined })}`,
    `  payload: ${payload ?? '(none)'}`,
    `  answer: ${failure.status ?? '-'} ${failure.body ?? ''}`,
    `  replay: npm run fuzz -- --seed ${report.seed} --only ${failure.index}`,
  ].join('\n');
}
