import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { Gauge, Registry } from 'prom-client';
import { projectionLag, readHead, type ProjectionTables } from '@filiere/projections';
import type { ReadinessCheck } from '../kernel/app-deps.js';
import { metricsAccess } from '../http/operator-access.js';
import { product } from '../modules.js';
import { nonJsonResponse } from '../kernel/responses.js';

/**
 * `/api/metrics` (Prometheus text): each projector's lag in events and the
 * event log's head position, read from PostgreSQL at scrape time. Not public: the scraper
 * sends `Authorization: Bearer <METRICS_TOKEN>`, or an admin or super admin their JWT.
 */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  // One read per scrape, shared by the gauges.
  let scrape: ReturnType<typeof projectionLag> | undefined;
  const read = () =>
    (scrape ??= projectionLag(
      app.deps.db,
      product.projectors.map((p) => p.name),
      { only: false },
    ));
  new Gauge({
    name: 'filiere_projection_lag_events',
    help: 'Events committed to the log that the projector has not applied yet',
    labelNames: ['projector'],
    registers: [registry],
    async collect() {
      const lag = await read();
      this.reset();
      for (const [name, p] of Object.entries(lag.projectors)) this.set({ projector: name }, p.lag);
    },
  });
  new Gauge({
    name: 'filiere_projection_checkpoint_position',
    help: 'Position of the last event the projector has applied',
    labelNames: ['projector'],
    registers: [registry],
    async collect() {
      const lag = await read();
      this.reset();
      for (const [name, p] of Object.entries(lag.projectors)) {
        this.set({ projector: name }, p.checkpoint);
      }
    },
  });
  new Gauge({
    name: 'filiere_event_store_head_position',
    help: 'Position of the last committed event',
    registers: [registry],
    async collect() {
      this.set((await read()).head);
    },
  });
  // Background work waiting (payouts PENDING at the provider, supply checks…): a payout stuck
  // for hours shows here before a user complains.
  let jobsScrape: Promise<JobsRow[]> | undefined;
  const readJobs = () => (jobsScrape ??= walletJobs(app.deps.db));
  new Gauge({
    name: 'filiere_wallet_jobs',
    help: 'Wallet background jobs not finished yet (payouts, supply checks), by kind',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await readJobs()) this.set({ kind: row.kind }, row.count);
    },
  });
  new Gauge({
    name: 'filiere_wallet_jobs_oldest_age_seconds',
    help: 'Age of the oldest unfinished wallet background job, by kind',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await readJobs()) this.set({ kind: row.kind }, row.oldestAgeSeconds);
    },
  });
  app.get(
    '/api/metrics',
    {
      schema: {
        tags: ['health'],
        summary: 'Métriques Prometheus (retard des projections)',
        description:
          'Bearer METRICS_TOKEN, ou le jeton d’un administrateur ou super administrateur.',
        security: [{ bearer: [] }],
        response: { 200: nonJsonResponse('The Prometheus text format', 'text/plain') },
      },
      preHandler: metricsAccess(app),
    },
    async (_request, reply) => {
      scrape = undefined;
      jobsScrape = undefined;
      const text = await registry.metrics().finally(() => {
        scrape = undefined;
        jobsScrape = undefined;
      });
      return reply.type(registry.contentType).send(text);
    },
  );
}

interface JobsRow {
  kind: string;
  count: number;
  oldestAgeSeconds: number;
}

/** Reads wallet_jobs with raw SQL: any Kysely on the product's database will do. */
async function walletJobs<DB>(db: Kysely<DB>): Promise<JobsRow[]> {
  const { rows } = await sql<JobsRow>`
    select kind, count(*)::int as "count",
           extract(epoch from now() - min(created_at))::float8 as "oldestAgeSeconds"
    from wallet_jobs group by kind order by kind`.execute(db);
  return rows;
}

/**
 * Readiness of the read side: `{ ok, details: { startHead, <projector>: { checkpoint, head, lag } } }`.
 * Ready once every projector (the product's, or `names`) has read the log up to `startHead`, the
 * head when the check was made (the server makes it before it listens): a client then finds in
 * the lists every event committed before the start (the demo's, a deploy's backlog). Events
 * committed since do not make it unready: a live system always has some in flight, and their
 * lag is /api/metrics' business. A projector stopped at a bad event before `startHead` keeps
 * the process unready, since the lists it feeds miss what the log holds.
 */
export function projectionsReadiness<DB extends ProjectionTables>(
  db: Kysely<DB>,
  names: readonly string[] = product.projectors.map((p) => p.name),
): ReadinessCheck {
  const startHead = readHead(db);
  // A failed first read is retried by the next probe rather than kept.
  startHead.catch(() => undefined);
  let head: Promise<number> = startHead;
  return async () => {
    const since = await head.catch(() => (head = readHead(db)));
    const lag = await projectionLag(db, [...names], { only: false });
    const ok = names.every((name) => (lag.projectors[name]?.checkpoint ?? 0) >= since);
    return { ok, details: { startHead: since, ...lag.projectors } };
  };
}

export { metricsAccess };
