import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { describeWithRedis, useTestDatabase } from '@filiere/platform/testing';
import {
  redisPushPublisher,
  redisPushSource,
  type PushMessage,
  type PushSource,
} from '@filiere/projections';
import { bearer, seedCluster, seedUser } from '../../identity/test-support.js';
import { buildTestApp } from '../../test-app.js';
import { startExportWorker, type ExportWorker } from './export-queue.js';
import { exportSettings } from '../http/queries/export.routes.js';
import { addTransactionRows, readSheet, until } from './testing/export-fixtures.js';
import type { Database } from '../../database.js';

describeWithRedis(
  'background exports through BullMQ (REDIS_URL): the worker writes them',
  (redisUrl) => {
    const t = useTestDatabase<Database>();
    const ROWS = 6_000;
    let app: FastifyInstance;
    let worker: ExportWorker | undefined;
    let redis: Redis;
    let pushes: PushSource;
    let dataDir: string;
    const received: PushMessage[] = [];
    let owner: { id: string };

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'filiere-export-bullmq-'));
      app = await buildTestApp(t.db, { env: { REDIS_URL: redisUrl, DATA_DIR: dataDir } });
      await app.ready();
      redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
      pushes = redisPushSource(redis);
      pushes.subscribe((m) => received.push(m));
      const cluster = await seedCluster(t.db, `Export BullMQ ${Date.now()}`);
      owner = await seedUser(t.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
      const row = await t.db
        .selectFrom('users')
        .select('wallet_id')
        .where('id', '=', owner.id)
        .executeTakeFirstOrThrow();
      await addTransactionRows(t.db, row.wallet_id as string, ROWS);
      exportSettings.syncLimit = 1_000;
    });
    afterAll(async () => {
      exportSettings.syncLimit = 10_000;
      await worker?.close();
      await app?.close();
      await pushes?.close();
      redis?.disconnect();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('the API only queues the job; a worker process’s export worker writes it and pushes through Redis', async () => {
      const headers = bearer(app, owner, 'ROLE_INDUSTRIAL');
      const res = await app.inject({
        method: 'GET',
        url: `/api/transaction/user/${owner.id}/export/xlsx`,
        headers,
      });
      expect(res.statusCode).toBe(202);
      const job = res.json();
      // No runner in the API process: the job waits for a worker.
      await new Promise((r) => setTimeout(r, 500));
      const waiting = await app.inject({ method: 'GET', url: job.statusUrl, headers });
      expect(waiting.json().status).toBe('PENDING');

      worker = await startExportWorker({
        db: t.db,
        redisUrl,
        publish: redisPushPublisher(redis),
        logger: createLogger('silent', false),
        runner: { dataDir },
        loop: { pollMs: 60_000 }, // only the BullMQ wake-up (or the start) runs it here
      });
      await until(
        async () =>
          (await app.inject({ method: 'GET', url: job.statusUrl, headers })).json().status ===
          'READY',
        'the worker’s export',
      );
      const file = await app.inject({ method: 'GET', url: job.downloadUrl, headers });
      expect(file.statusCode).toBe(200);
      expect(await readSheet(file.rawPayload)).toHaveLength(ROWS + 1);
      await until(async () => received.some((m) => m.type === 'export.ready'), 'the ready push');
      const mine = received.filter((m) => m.type.startsWith('export.'));
      expect(mine.every((m) => m.userIds.join() === owner.id)).toBe(true);
      expect(mine.at(-1)!.data).toEqual({ jobId: job.jobId, url: job.downloadUrl });

      // A second export while the worker runs: woken by BullMQ, not by the (60 s) poll.
      const again = (
        await app.inject({
          method: 'GET',
          url: `/api/transaction/user/${owner.id}/export/xlsx`,
          headers,
        })
      ).json();
      await until(
        async () =>
          (await app.inject({ method: 'GET', url: again.statusUrl, headers })).json().status ===
          'READY',
        'the second export',
        20_000,
      );
    });
  },
);
