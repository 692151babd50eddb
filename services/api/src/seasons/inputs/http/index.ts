import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storableString } from '@filiere/platform';
import type { SignedInUser } from '../../../kernel/actor.js';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import type { SeasonActor } from '../../domain/index.js';
import { InputCommands } from '../commands/input-commands.js';
import { InputQueries } from '../queries.js';
import { inputsDb } from '../db.js';
import { INPUT_MESSAGES } from '../domain/index.js';

const tags = ['seasons'];
const security = [{ bearer: [] }];
const INVALID = 'Entré non valide';
const REQUIRED = 'Ce champ est obligatoire';
const { SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, INDUSTRIAL, INPUT_PROVIDER } = ROLE;

/** Who may call what (the generated authorization matrix reads the guards). */
export const INPUT_ROUTE_ROLES = {
  /** Assigning a provider: the industrial, on its own CONFIRMED link. */
  assign: [INDUSTRIAL],
  /** Banning: the industrial (its own) and the super admin. */
  ban: [INDUSTRIAL, SUPER_ADMIN],
  /** A link's providers: staff any; the industrial its own; a provider its own rows. */
  list: [SUPER_ADMIN, CLUSTER_MANAGER, INDUSTRIAL, INPUT_PROVIDER],
  /** The maximum quantity: staff any; the industrial its own. */
  max: [SUPER_ADMIN, CLUSTER_MANAGER, INDUSTRIAL],
  /** FOURNITURE_INTRANT smart contracts: super admin and admin any; industrial and provider their own. */
  smarts: [SUPER_ADMIN, ADMIN, INDUSTRIAL, INPUT_PROVIDER],
} as const;

const id = z.coerce.number({ message: 'Identifiant invalide' }).int().positive().max(2_147_483_647);
const intBody = (field: string) =>
  z
    .number({ message: REQUIRED })
    .int({ message: INVALID })
    .positive({ message: `Le champ ${field} doit avoir une valeur supérieure ou égale à 1` })
    .max(2_147_483_647, { message: INVALID });

const assignBody = z
  .object({
    /** The industrial's season link (the spec's userClusterId). */
    userClusterId: intBody('saison'),
    /** The supplier (input_suppliers.id) or its representative's user id. */
    inputProviderId: z.guid({ message: REQUIRED }),
    /** The fertilizer (the spec's inputType). */
    fertilizerId: intBody('engrais').optional(),
    inputType: intBody('engrais').optional(),
    /** Kg (integer). */
    quantity: z
      .number({ message: REQUIRED })
      .int({ message: 'La quantité doit être un nombre entier de kg' })
      .positive({ message: INPUT_MESSAGES.quantityMin })
      .max(1_000_000_000, { message: INVALID }),
  })
  .refine((b) => b.fertilizerId !== undefined || b.inputType !== undefined, {
    message: REQUIRED,
    path: ['fertilizerId'],
  });

const idempotencyHeaders = z.looseObject({
  'idempotency-key': storableString().min(1).max(200).optional(),
});
const pageQuery = z.object({
  q: storableString().trim().max(200).optional(),
  page: z.coerce.number({ message: INVALID }).int().min(1).max(100_000).default(1),
  limit: z.coerce.number({ message: INVALID }).int().min(1).max(100).default(10),
});

const assignmentAnswer = z.object({
  assignmentId: z.number().int(),
  seasonId: z.number().int(),
  linkId: z.number().int(),
  providerUserId: z.string(),
  fertilizerId: z.number().int(),
  typeId: z.number().int(),
  quantityKg: z.number().int(),
  unitAmount: z.number().int(),
  amount: z.number().int(),
  holdId: z.string(),
  status: z.string(),
  computedQte: z.number().int(),
});
const providerRow = z.object({
  id: z.number().int(),
  seasonId: z.number().int(),
  linkId: z.number().int(),
  supplierId: z.string().nullable(),
  provider: z.object({
    userId: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    phone: z.string().nullable(),
  }),
  fertilizer: z.object({
    id: z.number().int(),
    label: z.string(),
    type: z.object({ id: z.number().int(), label: z.string() }),
  }),
  quantity: z.number().int(),
  unitAmount: z.number().int(),
  amount: z.number().int(),
  deliveredAmount: z.number().int(),
  remainingAmount: z.number().int(),
  status: z.string(),
  createdAt: z.string(),
});
const smartRow = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.string(),
  createdAt: z.string(),
  rightSide: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }),
  meta: z.object({
    quantity: z.string(),
    remaining: z.string(),
    amount: z.number().int(),
    fertilizer: z.string(),
  }),
});

const person = z.object({
  userId: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  phone: z.string().nullable(),
});
const supplyDetail = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.string(),
  createdAt: z.string(),
  season: z.object({
    id: z.number().int(),
    label: z.string(),
    fromDate: z.string(),
    toDate: z.string(),
  }),
  industrial: person,
  provider: person,
  fertilizer: z.object({ label: z.string(), type: z.string() }),
  quantity: z.number().int(),
  deliveredQuantity: z.number().int(),
  unitAmount: z.number().int(),
  amount: z.number().int(),
  deliveredAmount: z.number().int(),
  remainingAmount: z.number().int(),
  releasedAmount: z.number().int(),
});

const actorOf = (user: SignedInUser): SeasonActor => ({ userId: user.id, role: user.role_code });

export function inputRoutes(
  scope: FastifyInstance,
  commands: InputCommands,
  queries: InputQueries,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // The role guard runs before validation (onRequest): a caller without the role gets 401/403,
  // never a 400 that tells what the body lacks.
  const guard = (roles: readonly (typeof ROLE)[keyof typeof ROLE][]) => {
    const handlers = [scope.requireRoles(...roles)];
    return { onRequest: handlers, preHandler: handlers };
  };

  app.post(
    '/user-cluster-input-provider',
    {
      schema: {
        tags,
        security,
        summary:
          'Assigner un fournisseur d’intrant à un engrais de sa saison confirmée (agrégateur) : réserve quantité × montant unitaire sur son wallet ; 422 avec le montant manquant, ou la quantité maximale',
        headers: idempotencyHeaders,
        body: assignBody,
        response: { 201: assignmentAnswer },
      },
      ...guard(INPUT_ROUTE_ROLES.assign),
    },
    async (request, reply) => {
      const b = request.body;
      const answer = await commands.assign(
        actorOf(request.actor!),
        {
          linkId: b.userClusterId,
          inputProviderId: b.inputProviderId,
          fertilizerId: (b.fertilizerId ?? b.inputType)!,
          quantity: b.quantity,
        },
        request.headers['idempotency-key'],
      );
      return reply.status(201).send(answer);
    },
  );

  app.delete(
    '/user-cluster-input-provider/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Bannir un fournisseur de la saison (agrégateur, super admin) : le reste de sa réservation revient au solde disponible',
        headers: idempotencyHeaders,
        params: z.object({ id }),
        response: {
          200: assignmentAnswer.extend({ released: z.number().int(), message: z.string() }),
        },
      },
      ...guard(INPUT_ROUTE_ROLES.ban),
    },
    async (request) => {
      const answer = await commands.ban(
        actorOf(request.actor!),
        request.params.id,
        request.headers['idempotency-key'],
      );
      const name = await queries.userName(answer.providerUserId);
      return { ...answer, message: `${name} est bani de la saison avec succès` };
    },
  );

  app.get(
    '/user-cluster-input-provider/input-quantite',
    {
      schema: {
        tags,
        security,
        summary:
          'Quantité maximale (kg) encore assignable pour un engrais dans la saison d’un agrégateur : ceil(H × dose) − déjà assigné',
        querystring: z.object({
          industrialId: z.guid({ message: REQUIRED }),
          clusterId: id,
          inputId: id,
        }),
        response: { 200: z.object({ maxQuantity: z.number().int() }) },
      },
      ...guard(INPUT_ROUTE_ROLES.max),
    },
    async (request) => {
      const actor = actorOf(request.actor!);
      const { industrialId, clusterId, inputId } = request.query;
      queries.requireSelfOrStaff(actor, industrialId);
      return { maxQuantity: await commands.maxQuantity(clusterId, industrialId, inputId) };
    },
  );

  app.get(
    '/user-cluster-input-provider/:linkId/input-providers',
    {
      schema: {
        tags,
        security,
        summary:
          'Fournisseurs d’intrants d’une saison d’agrégateur (lien) : recherche, pagination ; {data, count}',
        params: z.object({ linkId: id }),
        querystring: pageQuery,
        response: { 200: z.object({ data: z.array(providerRow), count: z.number().int() }) },
      },
      ...guard(INPUT_ROUTE_ROLES.list),
    },
    async (request) =>
      queries.ofLink(actorOf(request.actor!), request.params.linkId, request.query),
  );

  app.get(
    '/contracts/smarts/:userId/FOURNITURE_INTRANT',
    {
      schema: {
        tags: ['contracts'],
        security,
        summary:
          'Contrats de fourniture d’intrants (assignations de fournisseurs) d’un agrégateur, ou d’un fournisseur ; {data, count}',
        params: z.object({ userId: z.guid({ message: INVALID }) }),
        querystring: pageQuery,
        response: { 200: z.object({ data: z.array(smartRow), count: z.number().int() }) },
      },
      ...guard(INPUT_ROUTE_ROLES.smarts),
    },
    async (request) =>
      queries.smarts(actorOf(request.actor!), request.params.userId, request.query),
  );

  app.get(
    '/contracts/input-supply/:id',
    {
      schema: {
        tags: ['contracts'],
        security,
        summary:
          'Un contrat de fourniture d’intrants (ShowContratIntrant) : saison, agrégateur, fournisseur, engrais, quantités et montants ; super admin et admin tous, l’agrégateur et le fournisseur le leur',
        params: z.object({ id }),
        response: { 200: supplyDetail },
      },
      ...guard(INPUT_ROUTE_ROLES.smarts),
    },
    async (request) => queries.supplyContract(actorOf(request.actor!), request.params.id),
  );
}

export const registerInputs: HttpRegistration = async (app) => {
  const db = inputsDb(app.deps.db);
  const commands = new InputCommands({
    db,
    pipeline: app.commands,
    ...(app.deps.clock ? { now: app.deps.clock } : {}),
  });
  const queries = new InputQueries(db);
  await app.register(async (scope) => inputRoutes(scope, commands, queries), { prefix: '/api' });
};
