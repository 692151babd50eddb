import { createReadStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConflictError, ForbiddenError, NotFoundError } from '@filiere/platform';
import { pgPushPublisher, redisPushPublisher } from '@filiere/projections';
import { callerOf, isAdminRole, targetUser } from '../queries/caller.js';
import { countWalletTransactions } from '../queries/transactions.repository.js';
import { security, tags, uuid } from '../queries/schemas.js';
import { downloadUrl, ExportJobs, type ExportJob } from './jobs.js';
import { writeTransactionsXlsx } from './xlsx.js';

/** Above this many rows the export runs as a background job (mutable for tests). */
export const exportSettings = { syncLimit: 10_000 };

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const jobSchema = z.object({
  jobId: z.string(),
  status: z.enum(['RUNNING', 'READY', 'FAILED']),
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
const fileName = () => `transactions-${new Date().toISOString().slice(0, 10)}.xlsx`;

/**
 * GET transaction/user/{id}/export/xlsx: the .xlsx streamed at once (204 when there is no
 * transaction), or, above `exportSettings.syncLimit` rows, 202 with a background job whose
 * progress is pushed over the websocket; then GET transaction/export/{jobId}[/download].
 */
export function registerWalletExport(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const publish = app.deps.redis
    ? redisPushPublisher(app.deps.redis)
    : pgPushPublisher(app.deps.db);
  const jobs = new ExportJobs(app.deps.db, publish);
  app.addHook('onClose', async () => jobs.close());

  const ownJob = async (request: Parameters<typeof callerOf>[1], jobId: string) => {
    const caller = await callerOf(app, request);
    const job = jobs.get(jobId);
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
      const user = await targetUser(app.deps.db, caller, request.params.id);
      const total = await countWalletTransactions(app.deps.db, user.walletId);
      if (total === 0) return reply.code(204).send();
      if (total > exportSettings.syncLimit) {
        const job = jobs.start(caller.id, user.walletId, total);
        return reply.code(202).send(jobDto(job));
      }
      const body = new PassThrough();
      writeTransactionsXlsx(app.deps.db, user.walletId, { stream: body }).catch((error) => {
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
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => {
      const job = await ownJob(request, request.params.jobId);
      if (job.status !== 'READY') throw new ConflictError('L’export n’est pas encore prêt');
      return reply
        .type(XLSX)
        .header('content-disposition', `attachment; filename="${fileName()}"`)
        .send(createReadStream(job.file));
    },
  );
}
