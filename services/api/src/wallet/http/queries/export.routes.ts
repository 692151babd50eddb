import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  beninDay,
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  narrowDb,
  NotFoundError,
} from '@filiere/platform';
import { pgPushPublisher, redisPushPublisher } from '@filiere/projections';
import { callerOf, isAdminRole, targetUser } from './caller.js';
import { countWalletTransactions } from './transactions.repository.js';
import { security, tags, uuid } from './schemas.js';
import { ExportQueue } from '../../export/export-queue.js';
import { exportLoop } from '../../export/export-loop.js';
import { downloadUrl, ExportRunner, type ExportRunnerOptions } from '../../export/export-runner.js';
import type { ExportJob } from '../../export/export-store.js';
import { MAX_EXPORT_ROWS, writeTransactionsXlsx } from '../../export/xlsx.js';
import type { WalletDb } from '../../tables.js';
import { nonJsonResponse } from '../../../kernel/responses.js';

/**
 * Above `syncLimit` rows the export runs as a background job. Mutable for tests, like
 * `runner` (read when the app is built: smaller pages, a pause per page, progress cadence).
 */
export const exportSettings: {
  syncLimit: number;
  runner: Partial<Pick<ExportRunnerOptions, 'pageSize' | 'pageDelayMs' | 'progressMs'>>;
} = { syncLimit: 10_000, runner: {} };

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const jobSchema = z.object({
  jobId: z.string(),
  status: z.enum(['PENDING', 'RUNNING', 'READY', 'FAILED']),
  total: z.number(),
  done: z.number(),
  statusUrl: z.string(),
  downloadUrl: z.string(),
});
const jobDto = (job: ExportJob) => ({
  jobId: job.id,
  status: job.status,
  total: job.total,
  done: job.done,
  statusUrl: `/api/transaction/export/${job.id}`,
  downloadUrl: downloadUrl(job.id),
});
const fileName = () => `transactions-${beninDay(new Date())}.xlsx`;

/**
 * GET transaction/user/{id}/export/xlsx: the .xlsx streamed at once (204 when there is no
 * transaction), or, above `exportSettings.syncLimit` rows, 202 with a durable background
 * job (table `wallet_exports`) run by the worker (REDIS_URL: BullMQ wakes it) or by this
 * process; progress is pushed over the websocket. Then GET transaction/export/{jobId}
 * (state) and …/download (the file), both for the job's owner or an admin.
 */
export function registerWalletExport(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { config, logger, redis } = app.deps;
  const db = narrowDb<WalletDb>()(app.deps.db);
  const publish = redis ? redisPushPublisher(redis) : pgPushPublisher(db);
  const runner = new ExportRunner(db, publish, {
    ...exportSettings.runner,
    dataDir: config.DATA_DIR,
    logger,
  });
  let wake: (jobId: string) => void;
  if (config.REDIS_URL) {
    const queue = new ExportQueue(config.REDIS_URL, logger);
    wake = (jobId) => queue.wake(jobId);
    app.addHook('onClose', () => queue.close());
  } else {
    const loop = exportLoop(runner, logger);
    wake = () => loop.wake();
    app.addHook('onReady', async () => loop.start());
    app.addHook('onClose', () => loop.stop());
  }

  const ownJob = async (request: FastifyRequest, jobId: string) => {
    const caller = await callerOf(app, request);
    const job = await runner.store.get(jobId);
    if (!job) throw new NotFoundError('Export introuvable ou expiré');
    if (job.userId !== caller.id && !isAdminRole(caller.role)) {
      throw new ForbiddenError('Cet export ne vous appartient pas');
    }
    return job;
  };

  app.get(
    '/transaction/user/:id/export/xlsx',
    {
      schema: {
        tags,
        security,
        summary:
          'Télécharger les transactions (.xlsx) ; 204 sans transaction ; 202 et tâche de fond au-delà de 10 000 lignes',
        params: z.object({ id: uuid }),
        response: {
          200: z.unknown().describe('the .xlsx file'),
          202: jobSchema,
          204: z.undefined().describe('no transaction'),
        },
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => {
      const caller = await callerOf(app, request);
      const user = await targetUser(db, caller, request.params.id);
      const total = await countWalletTransactions(db, user.walletId);
      if (total === 0) return reply.code(204).send();
      if (total > MAX_EXPORT_ROWS) {
        throw new BusinessRuleError(
          `Trop de transactions pour un seul fichier (${total} ; au plus ${MAX_EXPORT_ROWS})`,
        );
      }
      if (total > exportSettings.syncLimit) {
        const job = await runner.store.create({
          userId: caller.id,
          walletId: user.walletId,
          total,
        });
        wake(job.id);
        return reply.code(202).send(jobDto(job));
      }
      const body = new PassThrough();
      writeTransactionsXlsx(db, user.walletId, { stream: body }).catch((error) => {
        request.log.error({ err: error }, 'xlsx export failed');
        body.destroy(error as Error);
      });
      return reply
        .type(XLSX)
        .header('content-disposition', `attachment; filename="${fileName()}"`)
        .send(body);
    },
  );

  app.get(
    '/transaction/export/:jobId',
    {
      schema: {
        tags,
        security,
        summary: 'État d’un export en tâche de fond',
        params: z.object({ jobId: uuid }),
        response: { 200: jobSchema },
      },
      preHandler: app.authenticate,
    },
    async (request) => jobDto(await ownJob(request, request.params.jobId)),
  );

  app.get(
    '/transaction/export/:jobId/download',
    {
      schema: {
        tags,
        security,
        summary: 'Télécharger le fichier d’un export terminé',
        params: z.object({ jobId: uuid }),
        response: { 200: nonJsonResponse('The .xlsx file', XLSX) },
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => {
      const job = await ownJob(request, request.params.jobId);
      if (job.status === 'FAILED') throw new ConflictError('L’export a échoué');
      if (job.status !== 'READY' || !job.file) {
        throw new ConflictError('L’export n’est pas encore prêt');
      }
      const file = runner.fileOf(job.file);
      await access(file).catch(() => {
        throw new NotFoundError('Export introuvable ou expiré');
      });
      return reply
        .type(XLSX)
        .header('content-disposition', `attachment; filename="${fileName()}"`)
        .send(createReadStream(file));
    },
  );
}
