import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { Gauge, Registry } from 'prom-client';
import { projectionLag, projectors } from '@filiere/projections';
import type { ReadinessCheck } from '../http/health.js';

/**
 * `/api/metrics` (Prometheus text): each projector's lag in events and the
 * event log's head position, read from PostgreSQL at scrape time.
 */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  // One read per scrape, shared by the gauges.
  let scrape: ReturnType<typeof projectionLag> | undefined;
  const read = () =>
    (scrape ??= projectionLag(
      app.deps.db,
      projectors.map((p) => p.name),
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
  app.get(
    '/api/metrics',
    { schema: { tags: ['health'], summary: 'Métriques Prometheus (retard des projections)' } },
    async (_request, reply) => {
      scrape = undefined;
      const text = await registry.metrics().finally(() => {
        scrape = undefined;
      });
      return reply.type(registry.contentType).send(text);
    },
  );
}

/** Readiness detail: `{ ok, details: { <projector>: { checkpoint, head, lag } } }`. */
export function projectionsReadiness(db: Kysely<any>): ReadinessCheck {
  return async () => {
    const lag = await projectionLag(
      db,
      projectors.map((p) => p.name),
      { only: false },
    );
    return { ok: true, details: lag.projectors };
  };
}
