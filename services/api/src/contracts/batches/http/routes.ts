import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { narrowDb, storableString, ValidationError } from '@filiere/platform';
import type { HttpRegistration } from '../../../kernel/module.js';
import { createSms } from '../../../identity/index.js';
import { ROLE } from '../../../kernel/roles.js';
import { AcceptanceCodes } from '../../commands/acceptance-code.js';
import { amountField, tonnesField } from '../../domain/index.js';
import { CONTRACT_FILTERS, type ContractFilter } from '../../queries.js';
import { ContractBatchCommands, type BatchFactsTables } from '../commands/batch-commands.js';
import { FILE_LIMITS, FILE_MESSAGES, fileRefused } from '../domain/contract-file.js';
import { BatchQueries, type BatchQueryTables } from '../queries.js';
import { contractTemplate, type TemplateTables } from '../template.js';
import { nonJsonResponse } from '../../../kernel/responses.js';

const tags = ['contracts'];
const security = [{ bearer: [] }];
const REQUIRED = 'Ce champ est obligatoire';
const INVALID = 'Entré non valide';

/** Who may call what (the authorization matrix reads the guards). */
export const BATCH_ROUTE_ROLES = {
  /** Making contracts many at a time: the aggregator (its wallet holds the amounts). */
  create: [ROLE.INDUSTRIAL],
  /** A preview (its owner; staff read), the parents and their subs (as the contracts). */
  read: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.INDUSTRIAL],
} as const;

const problem = z.object({ line: z.number().int(), column: z.string(), reason: z.string() });
const summary = z.object({
  previewId: z.string(),
  source: z.enum(['FILE', 'GROWERS']),
  fileName: z.string().nullable(),
  count: z.number().int(),
  totalQuantity: z.string(),
  totalAmount: z.number().int(),
  expiresAt: z.string(),
  parentId: z.string().nullable(),
});
const refused = z.object({
  statusCode: z.number(),
  message: z.string(),
  problems: z.array(problem).optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
const page = z.coerce.number({ message: INVALID }).int().min(1).max(100_000).default(1);
const limit = z.coerce.number({ message: INVALID }).int().min(1).max(100).default(10);
const smartsQuery = z.object({
  page,
  limit,
  q: storableString().trim().max(200).optional(),
  filters: z
    .enum(Object.keys(CONTRACT_FILTERS) as [ContractFilter, ...ContractFilter[]], {
      message: INVALID,
    })
    .default('all'),
  onlyParent: z.enum(['true', 'false'], { message: INVALID }).optional(),
});
const metaShape = z.object({
  quantity: z.string(),
  remaining: z.string(),
  amount: z.number().int(),
});
const parentRow = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.string(),
  createdAt: z.string(),
  source: z.string(),
  fileName: z.string().nullable(),
  meta: metaShape,
  subContracts: z.number().int(),
  byStatus: z.record(z.string(), z.number().int()),
});
const subRow = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.string(),
  createdAt: z.string(),
  deliveryDate: z.string(),
  growerReference: z.string(),
  plotName: z.string(),
  rightSide: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }),
  meta: metaShape,
});
const selectedRow = z.object({
  growerId: z.guid({ message: REQUIRED }),
  productId: z.guid({ message: INVALID }).optional(),
  /** The same rule as a single contract's and a file's (parseTonnes, parseAmount). */
  quantity: tonnesField,
  amount: amountField,
  deliveryDate: z.iso.date({ message: INVALID }).optional(),
});
const idempotencyHeaders = z.looseObject({
  'idempotency-key': storableString().min(1).max(200).optional(),
});

const toSummary = (s: {
  previewId: string;
  source: 'FILE' | 'GROWERS';
  fileName: string | null;
  count: number;
  totalKg: number;
  totalAmount: number;
  expiresAt: string;
  parentId: string | null;
}) => ({
  previewId: s.previewId,
  source: s.source,
  fileName: s.fileName,
  count: s.count,
  totalQuantity: kgText(s.totalKg),
  totalAmount: s.totalAmount,
  expiresAt: s.expiresAt,
  parentId: s.parentId,
});

const kgText = (kg: number) => {
  const rest = kg % 1000;
  return rest === 0
    ? String(Math.trunc(kg / 1000))
    : `${Math.trunc(kg / 1000)}.${String(rest).padStart(3, '0').replace(/0+$/, '')}`;
};

export function batchRoutes(
  scope: FastifyInstance,
  commands: ContractBatchCommands,
  queries: BatchQueries,
  templateDb: Parameters<typeof contractTemplate>[0],
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/contracts/batches/preview',
    {
      schema: {
        tags,
        security,
        summary:
          'Créer plusieurs contrats (étape 1) : un fichier .xlsx ou .csv (multipart, champ « file », ≤ 5 Mo, ≤ 10 000 lignes) vérifié ligne par ligne → un aperçu (24 h) ; 400 avec chaque problème {line, column, reason} ; rien n’est créé',
        consumes: ['multipart/form-data'],
        response: { 201: summary, 400: refused },
      },
      preHandler: [scope.requireRoles(...BATCH_ROUTE_ROLES.create)],
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new ValidationError('Choisissez un fichier .xlsx ou .csv', {
          fields: { file: REQUIRED },
        });
      }
      let file;
      try {
        file = await request.file();
      } catch {
        throw new ValidationError('Choisissez un fichier .xlsx ou .csv', {
          fields: { file: REQUIRED },
        });
      }
      if (!file) {
        throw new ValidationError('Choisissez un fichier .xlsx ou .csv', {
          fields: { file: REQUIRED },
        });
      }
      let buffer: Buffer;
      try {
        buffer = await file.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw fileRefused([{ line: 0, column: 'Fichier', reason: FILE_MESSAGES.tooBig }]);
        }
        throw error;
      }
      const answer = await commands.previewFile(request.actor!, {
        buffer,
        fileName: file.filename || '',
      });
      return reply.status(201).send(toSummary(answer));
    },
  );

  app.post(
    '/contracts/batches/from-growers',
    {
      schema: {
        tags,
        security,
        summary:
          'Créer plusieurs contrats à partir de producteurs choisis (étape 1) : producteur, parcelle, quantité (t), montant → un aperçu ; 400 avec chaque problème',
        body: z.object({
          rows: z
            // No minimum here: the role guard answers before an empty selection is refused.
            .array(selectedRow)
            .max(FILE_LIMITS.maxRows, { message: FILE_MESSAGES.tooManyRows(FILE_LIMITS.maxRows) }),
        }),
        response: { 201: summary, 400: refused },
      },
      preHandler: [scope.requireRoles(...BATCH_ROUTE_ROLES.create)],
    },
    async (request, reply) => {
      if (request.body.rows.length === 0) {
        throw new ValidationError('Choisissez au moins un producteur', {
          fields: { rows: REQUIRED },
        });
      }
      const answer = await commands.previewGrowers(request.actor!, request.body.rows);
      return reply.status(201).send(toSummary(answer));
    },
  );

  app.get(
    '/contracts/batches/template',
    {
      schema: {
        tags,
        security,
        summary:
          'Modèle du fichier « créer plusieurs » (.xlsx ou .csv) ; avec growerIds, une ligne par parcelle des producteurs choisis (référence, téléphone, parcelle)',
        querystring: z.object({
          format: z.enum(['xlsx', 'csv'], { message: INVALID }).default('xlsx'),
          growerIds: storableString()
            .max(40_000)
            .optional()
            .transform((v) =>
              v
                ? v
                    .split(',')
                    .map((s) => s.trim())
                    .filter(Boolean)
                : [],
            )
            .pipe(z.array(z.guid({ message: INVALID })).max(1000, { message: INVALID })),
        }),
        response: {
          200: nonJsonResponse(
            'The template',
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'text/csv',
          ),
        },
      },
      preHandler: [scope.requireRoles(...BATCH_ROUTE_ROLES.create)],
    },
    async (request, reply) => {
      const file = await contractTemplate(
        templateDb,
        request.query.format,
        request.query.growerIds,
      );
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(file.body);
    },
  );

  app.get(
    '/contracts/batches/:previewId',
    {
      schema: {
        tags,
        security,
        summary:
          'Page de confirmation d’un aperçu : « Le fichier contient N producteurs », ses lignes paginées (son auteur ; super admin et admin en lecture)',
        params: z.object({ previewId: z.guid({ message: INVALID }) }),
        querystring: z.object({ page, limit }),
        response: {
          200: summary.extend({
            data: z.array(
              z.object({
                line: z.number().int(),
                growerId: z.string(),
                growerReference: z.string(),
                firstname: z.string(),
                lastname: z.string(),
                phone: z.string().nullable(),
                plotId: z.string(),
                plotName: z.string(),
                productType: z.string().nullable(),
                quantity: z.string(),
                amount: z.number().int(),
                deliveryDate: z.string(),
              }),
            ),
          }),
        },
      },
      preHandler: [scope.requireRoles(...BATCH_ROUTE_ROLES.read)],
    },
    async (request) => {
      const preview = await commands.previewOf(request.actor!, request.params.previewId, 'read');
      const data = await queries.previewRows(preview.id, request.query);
      return {
        ...toSummary({
          previewId: preview.id,
          source: preview.source,
          fileName: preview.file_name,
          count: preview.row_count,
          totalKg: Number(preview.total_kg),
          totalAmount: Number(preview.total_amount),
          expiresAt: new Date(preview.expires_at).toISOString(),
          parentId: preview.parent_id,
        }),
        data,
      };
    },
  );

  app.post(
    '/contracts/batches/:previewId/validate',
    {
      schema: {
        tags,
        security,
        summary:
          '« Valider » : un contrat parent (LIVRAISON_PARENT) et un sous-contrat par ligne, chacun avec sa réservation, tout ou rien ; 422 « Il manque <montant> FCFA » pour le total ; valider deux fois ne crée qu’une fois',
        headers: idempotencyHeaders,
        params: z.object({ previewId: z.guid({ message: INVALID }) }),
        response: {
          201: z.object({
            parentId: z.string(),
            reference: z.string(),
            count: z.number().int(),
            totalAmount: z.number().int(),
          }),
        },
      },
      preHandler: [scope.requireRoles(...BATCH_ROUTE_ROLES.create)],
    },
    async (request, reply) => {
      const answer = await commands.validate(
        request.actor!,
        request.params.previewId,
        request.headers['idempotency-key'],
      );
      return reply.status(201).send(answer);
    },
  );

  app.get(
    '/contracts/smarts/:userId/LIVRAISON_PARENT',
    {
      schema: {
        tags,
        security,
        summary:
          'Contrats parents (LIVRAISON_PARENT) d’un agrégateur, avec leurs sous-contrats comptés par statut ; {data, count}',
        params: z.object({ userId: z.guid({ message: INVALID }) }),
        querystring: smartsQuery,
        response: { 200: z.object({ data: z.array(parentRow), count: z.number().int() }) },
      },
      preHandler: [scope.requireRoles(...BATCH_ROUTE_ROLES.read)],
    },
    async (request) =>
      queries.parents(request.actor!, request.params.userId, {
        page: request.query.page,
        limit: request.query.limit,
        q: request.query.q,
      }),
  );

  app.get(
    '/contracts/sub-smarts/:parentId',
    {
      schema: {
        tags,
        security,
        summary:
          'Sous-contrats d’un contrat parent (sousContratsLivraisons) : recherche, filtres, pagination ; {parent, data, count}',
        params: z.object({ parentId: storableString().min(1).max(100) }),
        querystring: smartsQuery,
        response: {
          200: z.object({
            parent: z.object({
              id: z.string(),
              reference: z.string(),
              subContracts: z.number().int(),
              quantity: z.string(),
              amount: z.number().int(),
              createdAt: z.string(),
            }),
            data: z.array(subRow),
            count: z.number().int(),
          }),
        },
      },
      preHandler: [scope.requireRoles(...BATCH_ROUTE_ROLES.read)],
    },
    async (request) =>
      queries.subContracts(request.actor!, request.params.parentId, {
        page: request.query.page,
        limit: request.query.limit,
        filter: request.query.filters,
        q: request.query.q,
      }),
  );
}

/** The batches' routes under /api, multipart limited to one file of 5 Mo in their scope. */
export const registerContractBatches: HttpRegistration = async (app) => {
  const commands = new ContractBatchCommands(
    narrowDb<BatchFactsTables>()(app.deps.db),
    app.commands,
    app.deps.clock,
    FILE_LIMITS,
    createSms(app.deps.config, app.deps.db, app.deps.logger),
    AcceptanceCodes.fromSecret(app.deps.config.JWT_SECRET),
  );
  const queries = new BatchQueries(narrowDb<BatchQueryTables>()(app.deps.db));
  const templateDb = narrowDb<TemplateTables>()(app.deps.db);
  await app.register(
    async (scope) => {
      await scope.register(multipart, {
        limits: { fileSize: FILE_LIMITS.maxBytes, files: 1, fields: 4, parts: 5 },
      });
      batchRoutes(scope, commands, queries, templateDb);
    },
    { prefix: '/api' },
  );
};
