import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EventStoreTables } from '@filiere/event-store';
import { narrowDb, storableString, TooManyRequestsError } from '@filiere/platform';
import { identityUsers } from '../../../identity/index.js';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { ContractTermsCommands } from '../commands/terms-commands.js';
import { PLACEHOLDERS } from '../domain/terms.js';
import { termsVersions } from '../terms-read.js';
import { DocumentReferences, type VerificationTables } from '../verification.js';

const tags = ['contracts'];
const security = [{ bearer: [] }];
const REQUIRED = 'Ce champ est obligatoire';

/** Who may call what (the authorization matrix reads the guards). */
export const DOCUMENT_ROUTE_ROLES = {
  /** The contract template's versions: the super admin edits them, the admin reads them. */
  readTerms: [ROLE.SUPER_ADMIN, ROLE.ADMIN],
  publishTerms: [ROLE.SUPER_ADMIN],
} as const;

/**
 * The public verification's limit per client address (IPv6 by /64): a reference holds 100
 * random bits, so the limit only keeps a scan from loading the database.
 */
export const VERIFY_LIMIT = { max: 30, windowMs: 60_000 } as const;

const clause = z.object({
  title: storableString()
    .trim()
    .min(1, { message: 'Donnez un titre à chaque clause' })
    .max(120, { message: '120 caractères au plus pour un titre' }),
  body: storableString()
    .trim()
    .min(1, { message: 'Écrivez le texte de chaque clause' })
    .max(4000, { message: '4000 caractères au plus pour une clause' }),
});
const publishBody = z.object({
  clauses: z
    .array(clause, { message: REQUIRED })
    .min(1, { message: 'Le modèle doit garder au moins une clause' })
    .max(30, { message: '30 clauses au plus' }),
});
const versionAnswer = z.object({
  version: z.number().int(),
  clauses: z.array(z.object({ title: z.string(), body: z.string() })),
  publishedBy: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }).nullable(),
  publishedAt: z.string().nullable(),
});
const ledgerAnswer = z.object({
  position: z.number().int(),
  hash: z.string(),
  recordedAt: z.string(),
  intact: z.boolean(),
});
const verificationAnswer = z.object({
  reference: z.string(),
  kind: z.enum(['CONTRACT', 'RECEIPT', 'STATEMENT']),
  kindLabel: z.string(),
  status: z.string(),
  statusLabel: z.string(),
  issuedOn: z.string(),
  documentNumber: z.string().nullable(),
  period: z.object({ from: z.string(), to: z.string() }).nullable(),
  termsVersion: z.number().int().nullable(),
  ledger: ledgerAnswer.nullable(),
});

async function documentRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.db;
  const events = narrowDb<Pick<EventStoreTables, 'events'>>()(db);
  const references = new DocumentReferences(narrowDb<VerificationTables>()(db));
  const commands = new ContractTermsCommands(scope.commands, scope.deps.clock);

  app.get(
    '/contracts/terms',
    {
      schema: {
        tags,
        security,
        summary:
          'Les versions du modèle de contrat de livraison (la plus récente d’abord) et les faits qu’une clause peut nommer : super admin, admin',
        response: {
          200: z.object({
            versions: z.array(versionAnswer),
            placeholders: z.array(z.object({ name: z.string(), description: z.string() })),
          }),
        },
      },
      preHandler: [scope.requireRoles(...DOCUMENT_ROUTE_ROLES.readTerms)],
    },
    async () => {
      const versions = await termsVersions(events);
      const ids = [
        ...new Set(versions.flatMap((v) => (v.publishedBy ? [v.publishedBy] : []))),
      ].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
      const users =
        ids.length === 0
          ? []
          : await db
              .selectFrom(identityUsers().as('u'))
              .select(['u.id', 'u.firstname', 'u.lastname'])
              .where('u.id', 'in', ids)
              .execute();
      return {
        versions: versions.map((v) => ({
          version: v.version,
          clauses: [...v.clauses],
          publishedBy: users.find((u) => u.id === v.publishedBy) ?? null,
          publishedAt: v.publishedAt,
        })),
        placeholders: Object.entries(PLACEHOLDERS).map(([name, description]) => ({
          name,
          description,
        })),
      };
    },
  );

  app.post(
    '/contracts/terms',
    {
      schema: {
        tags,
        security,
        summary:
          'Publie une nouvelle version du modèle de contrat de livraison (les contrats créés ensuite l’impriment) : super admin',
        body: publishBody,
        response: { 201: z.object({ version: z.number().int() }) },
      },
      preHandler: [scope.requireRoles(...DOCUMENT_ROUTE_ROLES.publishTerms)],
    },
    async (request, reply) => {
      const result = await commands.publish(request.actor!, request.body.clauses);
      return reply.code(201).send(result);
    },
  );

  // The public page's API: no token, limited per address, in its own scope (the limiter's).
  await scope.register(async (open) => {
    await open.register(rateLimit, {
      global: false,
      ...(scope.deps.redis
        ? { redis: scope.deps.redis, nameSpace: 'filiere:rate-limit:verify:' }
        : {}),
    });
    const limit = open.createRateLimit({
      max: VERIFY_LIMIT.max,
      timeWindow: VERIFY_LIMIT.windowMs,
      keyGenerator: (r) => `verify|${normalizeIP(r.ip)}`,
    });
    open.withTypeProvider<ZodTypeProvider>().get(
      '/verifier/:reference',
      {
        schema: {
          tags,
          summary:
            'Vérification publique d’un document (contrat, reçu, relevé) par la référence de son code QR : son genre, son statut, ses dates et son empreinte dans le registre, rien de personnel ; 404 inconnue ; limitée par adresse',
          params: z.object({ reference: storableString().min(1).max(64) }),
          response: { 200: verificationAnswer },
        },
        preHandler: [
          async (request, reply) => {
            const result = await limit(request);
            if (!result.isAllowed && result.isExceeded) {
              reply.header('retry-after', result.ttlInSeconds);
              throw new TooManyRequestsError(
                'Trop de vérifications depuis cette adresse. Réessayez dans une minute.',
              );
            }
          },
        ],
      },
      async (request, reply) => {
        const answer = await references.verify(request.params.reference);
        void reply.header('cache-control', 'no-store');
        return answer;
      },
    );
  });
}

/** The documents' routes under /api: the contract template, the public verification. */
export const registerContractDocuments: HttpRegistration = async (app) => {
  await app.register(documentRoutes, { prefix: '/api' });
};
