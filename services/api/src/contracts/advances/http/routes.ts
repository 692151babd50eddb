import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { narrowDb, storableString } from '@filiere/platform';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { DEBT_KINDS } from '../../domain/index.js';
import { ADVANCE_FILTERS, AdvanceQueries, type AdvanceQueryTables } from '../queries.js';

const tags = ['contracts'];
const security = [{ bearer: [] }];
const INVALID = 'Entré non valide';

/** Who reads the advance families: the creditor (industrial, SFD), super admin and admin. */
export const ADVANCE_ROUTE_ROLES = {
  read: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.INDUSTRIAL, ROLE.SFD],
} as const;

const page = z.coerce.number({ message: INVALID }).int().min(1).max(100_000).default(1);
const limit = z.coerce.number({ message: INVALID }).int().min(1).max(100).default(10);
const advanceRow = z.object({
  id: z.string(),
  reference: z.string(),
  kind: z.enum(DEBT_KINDS),
  status: z.enum(['OPEN', 'REPAID']),
  createdAt: z.string(),
  growerId: z.string(),
  growerReference: z.string(),
  rightSide: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }),
  meta: z.object({
    amount: z.number().int(),
    recovered: z.number().int(),
    remaining: z.number().int(),
  }),
});

const SUMMARIES: Record<(typeof DEBT_KINDS)[number], string> = {
  AVANCE_SUR_INTRANT:
    'Avances sur intrants d’un industriel (intrants livrés par code) : recherche, filtre all/open/repaid, pagination ; {data, count}',
  AVANCE_SUR_ANANAS:
    'Avances sur ananas d’un industriel (demandes PINEAPLE acceptées) : recherche, filtre, pagination ; {data, count}',
  FINANCEMENT_SOCIAL:
    'Financements sociaux d’un SFD (demandes SOCIAL acceptées) : recherche, filtre, pagination ; {data, count}',
};

export function advanceRoutes(scope: FastifyInstance, queries: AdvanceQueries): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // Static segments: Fastify prefers them to the core's `contracts/smarts/:userId/:type`.
  for (const kind of DEBT_KINDS) {
    app.get(
      `/contracts/smarts/:userId/${kind}`,
      {
        schema: {
          tags,
          security,
          summary: SUMMARIES[kind],
          params: z.object({ userId: z.guid({ message: INVALID }) }),
          querystring: z.object({
            page,
            limit,
            q: storableString().trim().max(200).optional(),
            filters: z.enum(ADVANCE_FILTERS, { message: INVALID }).default('all'),
            onlyParent: z.enum(['true', 'false'], { message: INVALID }).optional(),
          }),
          response: { 200: z.object({ data: z.array(advanceRow), count: z.number().int() }) },
        },
        preHandler: [scope.requireRoles(...ADVANCE_ROUTE_ROLES.read)],
      },
      async (request) =>
        queries.list(request.actor!, request.params.userId, kind, {
          page: request.query.page,
          limit: request.query.limit,
          q: request.query.q,
          filter: request.query.filters,
        }),
    );
  }

  app.get(
    '/contracts/advances/:id/recoveries',
    {
      schema: {
        tags,
        security,
        summary:
          'Une avance (ou un financement social) et les contrats de livraison qui l’ont remboursée (sous-contrats) ; le créancier, super admin, admin',
        params: z.object({ id: storableString().min(1).max(200) }),
        querystring: z.object({ page, limit }),
        response: {
          200: z.object({
            advance: advanceRow,
            data: z.array(
              z.object({
                contractId: z.string(),
                reference: z.string().nullable(),
                amount: z.number().int(),
                recoveredAt: z.string(),
              }),
            ),
            count: z.number().int(),
          }),
        },
      },
      preHandler: [scope.requireRoles(...ADVANCE_ROUTE_ROLES.read)],
    },
    async (request) => queries.recoveries(request.actor!, request.params.id, request.query),
  );
}

export const registerContractAdvances: HttpRegistration = async (app) => {
  const queries = new AdvanceQueries(narrowDb<AdvanceQueryTables>()(app.deps.db));
  await app.register(async (scope) => advanceRoutes(scope, queries), { prefix: '/api' });
};
