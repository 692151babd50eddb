import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Redis } from 'ioredis';
import {
  buildApp,
  startProjectionDispatch,
  type BackgroundThreadHandle,
  type Database,
} from '@filiere/api';
import { createDb, createLogger, parseConfig } from '@filiere/platform';
import { pgPushSource } from '@filiere/projections';

/**
 * The API under test in bench:wallet, in its own process(es) so that the load
 * generator does not take its CPU: what `startServer` runs (the app, the projection
 * dispatch: the background thread without REDIS_URL, BullMQ jobs with it), plus the ceiling
 * route `GET /api/bench/ping` (JWT verify, 200). With BENCH_API_PROCESSES > 1 a
 * Node cluster primary forks that many API processes sharing PORT. Reports
 * `{ ready: true }` to its parent over IPC once listening; SIGTERM stops it.
 * BENCH_DISPATCH=none (diagnostic only): no projector runs at all.
 */
const processes = Number(process.env.BENCH_API_PROCESSES ?? 1);

if (cluster.isPrimary && processes > 1) {
  let ready = 0;
  for (let i = 0; i < processes; i++) {
    cluster.fork().on('message', (m: { ready?: boolean }) => {
      if (m.ready && ++ready === processes) process.send?.({ ready: true });
    });
  }
  cluster.on('exit', (worker, code) => {
    if (code) process.stderr.write(`API process ${worker.process.pid} exited with ${code}\n`);
  });
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    setTimeout(() => process.exit(0), 3000).unref();
    cluster.on('exit', () => {
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
    });
  });
} else {
  await serve();
}

async function serve(): Promise<void> {
  const config = parseConfig();
  const databaseUrl = config.DATABASE_URL!;
  const logger = createLogger(config.LOG_LEVEL, false);
  const db = createDb<Database>(databaseUrl, { max: 20, applicationName: 'bench-api' });
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 })
    : undefined;
  let stopDispatch: () => Promise<void>;
  let backgroundThread: BackgroundThreadHandle | undefined;
  if (process.env.BENCH_DISPATCH === 'none') {
    // Diagnostic (BENCH_DISPATCH=none): no projector runs, to measure what HTTP and the command
    // pipeline alone cost per transfer. Never the bench's figures (the lag runs need projectors).
    stopDispatch = async () => undefined;
  } else {
    // The API's own dispatch: BullMQ jobs with REDIS_URL, else the background thread.
    const running = startProjectionDispatch({ config, db, logger, databaseUrl });
    stopDispatch = running.close;
    backgroundThread = running.thread;
  }
  const pushes = redis ? undefined : pgPushSource(databaseUrl);
  const app = await buildApp({
    config,
    db,
    logger,
    ...(redis ? { redis } : {}),
    realtime: pushes ? { pushes } : {},
    ...(backgroundThread ? { backgroundThread } : {}),
  });
  app.get('/api/bench/ping', { preHandler: app.authenticate }, async () => ({ ok: true }));
  // Diagnostic (BENCH_TRANSFER_PATH=/api/bench/post): what a transfer's request costs without
  // its command: JWT, an idempotency header and a body checked by zod, a 201 of a transfer's size.
  app.post(
    '/api/bench/post',
    {
      preHandler: app.authenticate,
      schema: {
        headers: z.object({ 'idempotency-key': z.string().min(8).max(200) }),
        body: z.object({
          source: z.string().uuid(),
          destination: z.string().uuid(),
          amount: z.number().int().positive().max(1e12),
          reason: z.string().max(500),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body as { source: string; destination: string; amount: number };
      return reply.status(201).send({
        id: randomUUID(),
        reference: 'TRF-0000000000',
        source: body.source,
        destination: body.destination,
        amount: body.amount,
        fees: 0,
        status: 'COMPLETED',
        createdAt: new Date().toISOString(),
      });
    },
  );
  const heapSampling = process.env.BENCH_HEAP_SAMPLE ? await sampleAllocations() : undefined;
  await app.listen({ host: '127.0.0.1', port: config.PORT });
  process.send?.({ ready: true });
  process.on('SIGTERM', () => {
    void (async () => {
      await heapSampling?.().catch(() => undefined);
      await app.close().catch(() => undefined);
      await stopDispatch().catch(() => undefined);
      await pushes?.close().catch(() => undefined);
      redis?.disconnect();
      await db.destroy().catch(() => undefined);
      process.exit(0);
    })();
  });
}

/**
 * Diagnostic (BENCH_HEAP_SAMPLE=<file.heapprofile>): V8's sampling heap profiler over the API's
 * life, counting the objects the scavenges and mark-compacts collected too (what it allocates,
 * not only what it keeps); written when the process stops.
 */
async function sampleAllocations(): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 32_768,
    includeObjectsCollectedByMajorGC: true,
    // BENCH_HEAP_SAMPLE_PROMOTED=1: leave out what the scavenges collect, keeping what they
    // promoted to the old generation (and what is still alive).
    includeObjectsCollectedByMinorGC: !process.env.BENCH_HEAP_SAMPLE_PROMOTED,
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(process.env.BENCH_HEAP_SAMPLE!, JSON.stringify(profile));
    session.disconnect();
  };
}
