import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { narrowDb, storableString } from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import { ContractPdfs, type ContractPdfTables } from './service.js';
import {
  CARD_ROLES,
  GrowerStatements,
  STATEMENT_ROLES,
  type GrowerStatementTables,
} from './statement.js';
import { nonJsonResponse } from '../../kernel/responses.js';

const tags = ['contracts'];
const DAY = 'Date invalide (AAAA-MM-JJ)';
/** A statement's period (Benin days, inclusive); both optional. */
const periodQuery = z.object({
  from: z.iso.date({ message: DAY }).optional(),
  to: z.iso.date({ message: DAY }).optional(),
});

/** Who may ask for a contract's PDF link (the service checks the reach on the contract). */
export const CONTRACT_PDF_ROLES = [
  ROLE.SUPER_ADMIN,
  ROLE.ADMIN,
  ROLE.INDUSTRIAL,
  ROLE.GROWER,
  ROLE.FARMER_ORGANIZATION,
] as const;

/**
 * `GET /api/contracts/smarts-download/{id}` → `{ url }` (a 10-minute signed link), and
 * `GET /api/contracts/pdf/{token}`, which serves the PDF to whoever holds the link (the
 * viewer's download link and pdf.js fetch it without the access token). Called inside the
 * contracts' `/api` scope.
 */
export function contractPdfRoutes(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const statements = new GrowerStatements(
    narrowDb<GrowerStatementTables>()(scope.deps.db),
    scope.deps.db,
    scope.deps.config.JWT_SECRET,
  );
  const pdfs = new ContractPdfs(
    narrowDb<ContractPdfTables>()(scope.deps.db),
    scope.deps.config.JWT_SECRET,
    { statements, publicUrl: scope.deps.config.PUBLIC_URL },
  );

  app.get(
    '/contracts/smarts-download/:id',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary:
          'Lien (10 minutes) vers le PDF d’un contrat de livraison : super admin, admin ; l’agrégateur, le producteur et sa coopérative le leur',
        params: z.object({ id: storableString().min(1).max(100) }),
        response: { 200: z.object({ url: z.string() }) },
      },
      preHandler: [scope.requireRoles(...CONTRACT_PDF_ROLES)],
    },
    async (request) => pdfs.link(request.actor!, request.params.id),
  );

  app.get(
    '/contracts/receipt-download/:id',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary:
          'Lien (10 minutes) vers le reçu de paiement PDF d’un contrat payé : super admin, admin ; l’agrégateur, le producteur et sa coopérative le leur ; 404 avant le paiement',
        params: z.object({ id: storableString().min(1).max(100) }),
        response: { 200: z.object({ url: z.string() }) },
      },
      preHandler: [scope.requireRoles(...CONTRACT_PDF_ROLES)],
    },
    async (request) => pdfs.receiptLink(request.actor!, request.params.id),
  );

  app.get(
    '/contracts/statement-download/me',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary:
          'Lien (10 minutes) vers le relevé PDF du producteur connecté : ses contrats, livraisons, dettes recouvrées et net versé sur la période (par défaut du 1er janvier à aujourd’hui)',
        querystring: periodQuery,
        response: { 200: z.object({ url: z.string() }) },
      },
      preHandler: [scope.requireRoles(ROLE.GROWER)],
    },
    async (request) =>
      statements.link(request.actor!, await statements.ownGrowerId(request.actor!), request.query),
  );

  app.get(
    '/contracts/statement-download/:growerId',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary:
          'Lien (10 minutes) vers le relevé PDF d’un producteur sur une période : le producteur le sien ; super admin, admin, l’agrégateur et la coopérative ceux de leur périmètre',
        params: z.object({ growerId: storableString().min(1).max(100) }),
        querystring: periodQuery,
        response: { 200: z.object({ url: z.string() }) },
      },
      preHandler: [scope.requireRoles(...STATEMENT_ROLES)],
    },
    async (request) => statements.link(request.actor!, request.params.growerId, request.query),
  );

  app.get(
    '/contracts/card-download/:growerId',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary:
          'Lien (10 minutes) vers la carte PDF d’un producteur (format carte bancaire : nom, code producteur en clair et en QR code, coopérative) : le producteur la sienne ; super admin, admin, gestionnaire de cluster, agrégateur, SFD et coopérative celles des producteurs de leur périmètre',
        params: z.object({ growerId: storableString().min(1).max(100) }),
        response: { 200: z.object({ url: z.string() }) },
      },
      preHandler: [scope.requireRoles(...CARD_ROLES)],
    },
    async (request) => statements.cardLink(request.actor!, request.params.growerId),
  );

  app.get(
    '/contracts/pdf/:token',
    {
      schema: {
        tags,
        summary:
          'Le PDF d’un contrat, d’un relevé ou d’une carte de producteur par son lien signé (sans jeton d’accès) ; 403 si le lien a expiré ou a été modifié',
        params: z.object({ token: storableString().min(1).max(1000) }),
        response: { 200: nonJsonResponse('The contract', 'application/pdf') },
      },
    },
    async (request, reply) => {
      const { filename, pdf } = await pdfs.byToken(request.params.token);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
