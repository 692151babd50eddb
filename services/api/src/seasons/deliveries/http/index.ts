import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError, storableString, TooManyRequestsError } from '@filiere/platform';
import { guessLimit, type GuessLimit } from '@filiere/platform';
import type { SignedInUser } from '../../../kernel/actor.js';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import type { SeasonActor } from '../../domain/index.js';
import { inputsDb } from '../../inputs/index.js';
import { DeliveryCommands } from '../commands/delivery-commands.js';
import { codeGuessCounters, DELIVERY_MESSAGES } from '../domain/index.js';
import { CodeCheckCache } from '../code-check.js';
import { DeliveryQueries } from '../queries.js';

const tags = ['seasons'];
const security = [{ bearer: [] }];
const INVALID = 'Entré non valide';
const { SUPER_ADMIN, ADMIN, INDUSTRIAL, INPUT_PROVIDER } = ROLE;

/** Who may call what (the generated authorization matrix reads the guards). */
export const DELIVERY_ROUTE_ROLES = {
  /** Finding a code and delivering: the industrial (its own) and its input providers. */
  deliver: [INDUSTRIAL, INPUT_PROVIDER],
  /** The 'Demandes d'intrants' list: each its own; super admin and admin anyone's. */
  list: [SUPER_ADMIN, ADMIN, INDUSTRIAL, INPUT_PROVIDER],
  /** The day's requests with their codes' checks, for working offline: the provider itself. */
  offline: [INPUT_PROVIDER],
} as const;

const idempotencyHeaders = z.looseObject({
  'idempotency-key': storableString().min(1).max(200).optional(),
});
const deliveryRow = z.object({
  id: z.number().int(),
  reference: z.string(),
  grower: z.object({
    id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    phone: z.string().nullable(),
  }),
  fertilizer: z.object({
    id: z.number().int(),
    label: z.string(),
    type: z.object({ id: z.number().int(), label: z.string() }),
  }),
  aggregator: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }),
  quantity: z.number().int(),
  amount: z.number().int(),
  status: z.enum(['CREATED', 'DONE']),
  receivedAt: z.string().nullable(),
  createdAt: z.string(),
});
const codeCheck = z.object({
  algorithm: z.literal('PBKDF2-SHA256'),
  iterations: z.number().int(),
  salt: z.string(),
  hash: z.string(),
});
const deliveryAnswer = z.object({
  requestId: z.number().int(),
  reference: z.string(),
  assignmentId: z.number().int(),
  providerUserId: z.string(),
  amount: z.number().int(),
  debtId: z.string(),
  deliveredAt: z.string(),
  status: z.literal('DONE'),
  message: z.string(),
});

const deliveryBody = z.object(
  {
    /** The grower's code (AGW_123456): its proof that the inputs were handed over. */
    code: storableString({ message: DELIVERY_MESSAGES.codeRequired })
      .trim()
      .min(1, { message: DELIVERY_MESSAGES.codeRequired })
      .max(40, { message: DELIVERY_MESSAGES.incorrectCode }),
  },
  { message: DELIVERY_MESSAGES.codeRequired },
);

const actorOf = (user: SignedInUser): SeasonActor => ({ userId: user.id, role: user.role_code });

/** A 429 of the guess limit carries its wait as Retry-After too. */
async function withRetryAfter<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TooManyRequestsError) {
      reply.header('retry-after', String(error.data.retryAfter ?? 60));
    }
    throw error;
  }
}

export function deliveryRoutes(
  scope: FastifyInstance,
  commands: DeliveryCommands,
  queries: DeliveryQueries,
  guesses: GuessLimit,
  checks: CodeCheckCache = new CodeCheckCache(),
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // The role guard runs before validation (onRequest): a caller without the role gets 401/403,
  // never a 400 that tells what the body lacks.
  const guard = (roles: readonly (typeof ROLE)[keyof typeof ROLE][]) => {
    const handlers = [scope.requireRoles(...roles)];
    return { onRequest: handlers, preHandler: handlers };
  };

  app.get(
    '/input-provider/find-by-code/:code',
    {
      schema: {
        tags,
        security,
        summary:
          'La demande d’intrants d’un code producteur (AGW_123456) : 404 « code incorrect » si inconnu ou hors de portée, 409 si déjà livrée ; 429 après trop de codes incorrects',
        params: z.object({ code: storableString().max(40) }),
        response: { 200: z.object({ isOk: z.literal(true), request: deliveryRow }) },
      },
      ...guard(DELIVERY_ROUTE_ROLES.deliver),
    },
    async (request, reply) =>
      withRetryAfter(reply, async () => {
        // A wrong code here is a guess too, on the caller's counter (no grower is known); a
        // right one (found, or already delivered) is refused while the caller is at its limit.
        const counters = codeGuessCounters(request.actor!.id);
        try {
          const found = await queries.findByCode(actorOf(request.actor!), request.params.code);
          await guesses.check(counters);
          return { isOk: true as const, request: found };
        } catch (error) {
          if (error instanceof NotFoundError) await guesses.take(counters);
          else if (!(error instanceof TooManyRequestsError)) await guesses.check(counters);
          throw error;
        }
      }),
  );

  app.post(
    '/input-provider/make-delivery/:requestId',
    {
      schema: {
        tags,
        security,
        summary:
          'Confirmer la livraison d’une demande d’intrants avec le code du producteur (sa preuve) : le fournisseur est payé sur la réservation de l’agrégateur, le producteur doit l’avance ; une seule fois (409 ensuite) ; code absent 400, incorrect 422 sans rien payer ; 429 après trop de codes incorrects (par fournisseur, par producteur)',
        headers: idempotencyHeaders,
        body: deliveryBody,
        params: z.object({
          requestId: z.coerce
            .number({ message: 'Identifiant invalide' })
            .int()
            .positive()
            .max(2_147_483_647),
        }),
        response: { 200: deliveryAnswer },
      },
      ...guard(DELIVERY_ROUTE_ROLES.deliver),
    },
    async (request, reply) =>
      withRetryAfter(reply, async () => {
        const answer = await commands.deliver(
          actorOf(request.actor!),
          request.params.requestId,
          request.body.code,
          request.headers['idempotency-key'],
        );
        return { ...answer, message: 'Producteur livré avec succès !' };
      }),
  );

  app.get(
    '/input-provider/offline-requests',
    {
      schema: {
        tags,
        security,
        summary:
          'Les demandes d’intrants à livrer du fournisseur connecté, pour travailler hors ligne : chacune avec de quoi vérifier le code du producteur sur le téléphone (PBKDF2-SHA256, sel propre à la demande), jamais le code ; les plus récentes, 300 au plus',
        response: {
          200: z.object({
            data: z.array(deliveryRow.extend({ codeCheck })),
            count: z.number().int(),
            issuedAt: z.string(),
          }),
        },
      },
      ...guard(DELIVERY_ROUTE_ROLES.offline),
    },
    async (request) => queries.offline(actorOf(request.actor!), checks),
  );

  app.get(
    '/input-provider/growers-request/:userId',
    {
      schema: {
        tags,
        security,
        summary:
          'Demandes d’intrants à livrer et livrées (fournisseur : ses intrants ; agrégateur : les siennes) ; recherche, pagination ; {data, count}',
        params: z.object({ userId: z.guid({ message: INVALID }) }),
        querystring: z.object({
          q: storableString().trim().max(200).optional(),
          page: z.coerce.number({ message: INVALID }).int().min(1).max(100_000).default(1),
          limit: z.coerce.number({ message: INVALID }).int().min(1).max(100).default(10),
        }),
        response: { 200: z.object({ data: z.array(deliveryRow), count: z.number().int() }) },
      },
      ...guard(DELIVERY_ROUTE_ROLES.list),
    },
    async (request) => queries.list(actorOf(request.actor!), request.params.userId, request.query),
  );
}

export const registerDeliveries: HttpRegistration = async (app) => {
  const db = inputsDb(app.deps.db);
  const guesses = guessLimit({ redis: app.deps.redis, logger: app.deps.logger });
  const commands = new DeliveryCommands({
    db,
    pipeline: app.commands,
    guesses,
    ...(app.deps.clock ? { now: app.deps.clock } : {}),
  });
  const queries = new DeliveryQueries(db);
  await app.register(async (scope) => deliveryRoutes(scope, commands, queries, guesses), {
    prefix: '/api',
  });
};
