import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { beninDay, BusinessRuleError, narrowDb } from '@filiere/platform';
import { acceptedBank } from '../../commands/context.js';
import { callerOf, targetUser } from './caller.js';
import { security, tags, uuid } from './schemas.js';
import { countUserSupplies, writeSuppliesXlsx } from '../../export/supplies-xlsx.js';
import { MAX_SHEET_ROWS } from '../../export/xlsx-sheet.js';
import type { WalletDb } from '../../tables.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const fileName = () => `approvisionnements-${beninDay(new Date())}.xlsx`;

/**
 * GET supply/user/{id}/export/xlsx: 'Télécharger' on Approvisionnements — the user's
 * supplies of both tabs as an .xlsx, streamed as it is written (a user's top-ups are few:
 * no background job); 204 when there is none. Self or admin, as the supply lists.
 */
export function registerSuppliesExport(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { config } = app.deps;
  const db = narrowDb<WalletDb>()(app.deps.db);
  const bank = acceptedBank(config.SUPPLY_BANK_NAME, config.SUPPLY_BANK_ACCOUNT);
  const bankName = (code: string | null) => (code === bank.code ? bank.name : code);

  app.get(
    '/supply/user/:id/export/xlsx',
    {
      schema: {
        tags,
        security,
        summary:
          'Télécharger les approvisionnements (mobile money, carte et virement) en .xlsx ; 204 sans approvisionnement',
        params: z.object({ id: uuid }),
        response: {
          200: z.unknown().describe('the .xlsx file'),
          204: z.undefined().describe('no supply'),
        },
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => {
      const caller = await callerOf(app, request);
      const user = await targetUser(db, caller, request.params.id);
      const total = await countUserSupplies(db, user.id);
      if (total === 0) return reply.code(204).send();
      if (total > MAX_SHEET_ROWS) {
        throw new BusinessRuleError(
          `Trop d’approvisionnements pour un seul fichier (${total} ; au plus ${MAX_SHEET_ROWS})`,
        );
      }
      const body = new PassThrough();
      writeSuppliesXlsx(db, user.id, { stream: body }, bankName).catch((error) => {
        request.log.error({ err: error }, 'supplies xlsx export failed');
        body.destroy(error as Error);
      });
      return reply
        .type(XLSX)
        .header('content-disposition', `attachment; filename="${fileName()}"`)
        .send(body);
    },
  );
}
