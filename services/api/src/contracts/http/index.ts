import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { narrowDb, storableString } from '@filiere/platform';
import { pgPushPublisher, redisPushPublisher } from '@filiere/projections';
import {
  GROWER_ROUTE_ROLES,
  growerContractItem,
  growerContractsQuery,
  requireReadableGrower,
} from '../../actors/index.js';
import { createSms } from '../../identity/index.js';
import type { HttpRegistration } from '../../kernel/module.js';
import { contractPdfRoutes } from '../pdf/http.js';
import { collectionRoutes } from '../collection/http.js';
import { CollectionService, type CollectionTables } from '../collection/service.js';
import { contractLoops, contractsBackground, type OutOfTimeRunner } from '../jobs/background.js';
import type { ContractRunRunner, ContractRuns } from '../run/run-contracts.js';
import { MAX_RUN_CONTRACTS } from '../run/run-contracts.js';
import type { ContractSettler } from '../run/settle-contract.js';
import { ROLE } from '../../kernel/roles.js';
import { AcceptanceCodes } from '../commands/acceptance-code.js';
import {
  DeliveryContractCommands,
  type ContractFactsTables,
} from '../commands/delivery-contract-commands.js';
import { amountField, tonnesField } from '../domain/index.js';
import {
  CONTRACT_FILTERS,
  ContractQueries,
  type ContractFilter,
  type ContractQueryTables,
} from '../queries.js';

const tags = ['contracts'];
const security = [{ bearer: [] }];
const REQUIRED = 'Ce champ est obligatoire';
const INVALID = 'Entré non valide';

/** Who may call what (the generated authorization matrix reads the guards). */
export const CONTRACT_ROUTE_ROLES = {
  /** Creating a delivery contract: the aggregator (its wallet holds the amount). */
  create: [ROLE.INDUSTRIAL],
  /** Contract pages (§6): super admin and admin all, an aggregator its own. */
  read: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.INDUSTRIAL],
  /** One delivery contract: the readers, and the grower or its cooperative who confirm it. */
  detail: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.INDUSTRIAL, ROLE.GROWER, ROLE.FARMER_ORGANIZATION],
  /**
   * Confirming: the grower (its own contract, his consent) or its cooperative's user with the
   * code the grower received (the decider checks).
   */
  confirm: [ROLE.GROWER, ROLE.FARMER_ORGANIZATION],
  /** A new acceptance code to the grower: the contract's aggregator, the cooperative, admins. */
  resendCode: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.INDUSTRIAL, ROLE.FARMER_ORGANIZATION],
  /** Recording the weighed delivery, cancelling: the contract's aggregator. */
  deliver: [ROLE.INDUSTRIAL],
  cancel: [ROLE.INDUSTRIAL],
  /** Running delivered contracts (pays growers): the aggregator, its own contracts. */
  run: [ROLE.INDUSTRIAL],
  /** A run's progress: its aggregator; super admin and admin any. */
  runs: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.INDUSTRIAL],
} as const;

const uuid = z.guid({ message: REQUIRED });
const createBody = z.object({
  growerId: uuid,
  productId: uuid,
  /** Tonnes, a number or a text ('2,5'): one rule for every body and file (parseTonnes). */
  quantity: tonnesField,
  /** F CFA, a number or a text of digits (parseAmount). */
  amount: amountField,
  deliveryDate: z.iso.date({ message: REQUIRED }).optional(),
  /** The spec's parent contract id ('create many'); single contracts send none. */
  contractId: z.unknown().optional(),
});
const idempotencyHeaders = z.looseObject({
  'idempotency-key': storableString().min(1).max(200).optional(),
});
const contractAnswer = z.object({
  contractId: z.string(),
  reference: z.string(),
  status: z.string(),
});
const rowAnswer = z.object({
  id: z.string(),
  reference: z.string(),
  parentId: z.string().nullable(),
  aggregatorUserId: z.string(),
  growerId: z.string(),
  plotId: z.string(),
  productType: z.string().nullable(),
  quantity: z.string(),
  amount: z.number().int(),
  deliveryDate: z.string(),
  status: z.string(),
  deliveredQuantity: z.string().nullable(),
  deliveredOn: z.string().nullable(),
  deliveredAmount: z.number().int().nullable(),
  recoveredAmount: z.number().int().nullable(),
  growerNet: z.number().int().nullable(),
  createdAt: z.string(),
  grower: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }).nullable(),
});
/** A run contract's recoveries by family and the grower's net (F CFA). */
const breakdownAnswer = z.object({
  inputAdvances: z.number().int(),
  pineappleAdvances: z.number().int(),
  socialFinancing: z.number().int(),
  growerNet: z.number().int(),
});
/** The grower's consent: how, who entered it, when, the phone the code went to (masked). */
const acceptanceAnswer = z.object({
  method: z.enum(['CODE', 'GROWER_SIGNED_IN']),
  acceptedAt: z.string(),
  acceptedBy: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }),
  phone: z.string().nullable(),
});
/** The code waiting for the grower's answer (PENDING): where it went (masked), when, locked. */
const acceptanceCodeAnswer = z.object({
  phone: z.string(),
  issuedAt: z.string(),
  locked: z.boolean(),
});
const detailAnswer = rowAnswer.extend({
  breakdown: breakdownAnswer.nullable(),
  acceptance: acceptanceAnswer.nullable(),
  acceptanceCode: acceptanceCodeAnswer.nullable(),
});
const contractParams = z.object({ id: z.guid({ message: INVALID }) });
const deliveryBody = z.object({
  /** Tonnes weighed, under the same rule as a contract's quantity (parseTonnes). */
  quantity: tonnesField,
  /** The delivery's date (YYYY-MM-DD); today when absent. */
  deliveredOn: z.iso.date({ message: REQUIRED }).optional(),
});
const runBody = z.object({
  // Empty is refused by the service (400), after the role guard.
  ids: z
    .array(z.guid({ message: INVALID }), { message: REQUIRED })
    .max(MAX_RUN_CONTRACTS, { message: `Au plus ${MAX_RUN_CONTRACTS} contrats à la fois` }),
});
const runAnswer = z.object({
  runId: z.string(),
  status: z.enum(['RUNNING', 'DONE']),
  total: z.number().int(),
  done: z.number().int(),
});
const runProgress = runAnswer.extend({
  completed: z.number().int(),
  failed: z.number().int(),
  createdAt: z.string(),
  items: z.array(
    z.object({
      contractId: z.string(),
      reference: z.string().nullable(),
      status: z.enum(['PENDING', 'COMPLETED', 'FAILED']),
      error: z.string().nullable(),
      growerNet: z.number().int().nullable(),
      recoveredAmount: z.number().int().nullable(),
      breakdown: breakdownAnswer.nullable(),
      payoutId: z.string().nullable(),
    }),
  ),
});
const listQuery = z.object({
  page: z.coerce.number({ message: INVALID }).int().min(1).max(100_000).default(1),
  limit: z.coerce.number({ message: INVALID }).int().min(1).max(100).default(10),
  filters: z
    .enum(Object.keys(CONTRACT_FILTERS) as [ContractFilter, ...ContractFilter[]], {
      message: INVALID,
    })
    .default('all'),
});

const smartsQuery = listQuery.extend({
  q: storableString().trim().max(200).optional(),
  onlyParent: z
    .enum(['true', 'false'], { message: INVALID })
    .default('false')
    .transform((v) => v === 'true'),
});
const smartAnswer = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.string(),
  createdAt: z.string(),
  rightSide: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }),
  meta: z.object({
    quantity: z.string(),
    remaining: z.string(),
    amount: z.number().int(),
    deliveryDate: z.string(),
  }),
});

export function contractRoutes(
  scope: FastifyInstance,
  commands: DeliveryContractCommands,
  queries: ContractQueries,
  runs: { runs: ContractRuns; runner: ContractRunRunner },
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/contracts/run-contracts',
    {
      schema: {
        tags,
        security,
        summary:
          'Exécuter des contrats livrés (agrégateur, irréversible) : 202 avec l’id de l’exécution ; chaque contrat est payé une seule fois en tâche de fond (progression par websocket et GET contracts/runs/{runId})',
        headers: idempotencyHeaders,
        body: runBody,
        response: { 202: runAnswer },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.run)],
    },
    async (request, reply) => {
      const answer = await runs.runs.start(
        request.actor!,
        request.body.ids.map((id) => id.toLowerCase()),
        request.headers['idempotency-key'],
      );
      runs.runner.wake();
      return reply.status(202).send(answer);
    },
  );

  app.post(
    '/contracts/run-delivered',
    {
      schema: {
        tags,
        security,
        summary:
          'Exécuter tous ses contrats livrés (« Livraison disponible », agrégateur, irréversible) : 202 comme run-contracts ; 400 s’il n’y en a aucun',
        headers: idempotencyHeaders,
        response: { 202: runAnswer },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.run)],
    },
    async (request, reply) => {
      const answer = await runs.runs.startDelivered(
        request.actor!,
        request.headers['idempotency-key'],
      );
      runs.runner.wake();
      return reply.status(202).send(answer);
    },
  );

  app.get(
    '/contracts/runs/:runId',
    {
      schema: {
        tags,
        security,
        summary:
          'Progression d’une exécution de contrats : total, terminés, échoués et chaque contrat (son agrégateur ; super admin et admin toutes)',
        params: z.object({ runId: z.guid({ message: INVALID }) }),
        response: { 200: runProgress },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.runs)],
    },
    async (request) => runs.runs.progress(request.actor!, request.params.runId),
  );

  app.post(
    '/contracts/delivery-contract',
    {
      schema: {
        tags,
        security,
        summary:
          'Créer un contrat de livraison (agrégateur) pour un producteur de son cluster (403 sinon) : réserve son montant sur le wallet ; 422 « Il manque <montant> FCFA » si le solde disponible est insuffisant',
        headers: idempotencyHeaders,
        body: createBody,
        response: { 201: contractAnswer },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.create)],
    },
    async (request, reply) => {
      const { contractId: _parent, ...body } = request.body;
      // The grower's reach as GET grower/{id} has it: 404 unknown, 403 another cluster's.
      await requireReadableGrower(scope.deps.db, request.actor!, body.growerId);
      const answer = await commands.create(
        request.actor!,
        body,
        request.headers['idempotency-key'],
      );
      return reply.status(201).send(answer);
    },
  );

  app.get(
    '/contracts/delivery-contract',
    {
      schema: {
        tags,
        security,
        summary:
          'Contrats de livraison : tous (super admin, admin) ou les siens (agrégateur) ; filtres all/waiting/ready/delivered/executed/outtime ; q cherche la référence et le nom du producteur',
        querystring: listQuery.extend({ q: storableString().trim().max(200).optional() }),
        response: { 200: z.object({ data: z.array(rowAnswer), count: z.number().int() }) },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.read)],
    },
    async (request) =>
      queries.list(request.actor!, {
        page: request.query.page,
        limit: request.query.limit,
        filter: request.query.filters,
        q: request.query.q,
      }),
  );

  app.get(
    '/contracts/smarts/:userId/:type',
    {
      schema: {
        tags,
        security,
        summary:
          'Contrats d’un agrégateur (smart contracts) : LIVRAISON ; recherche, filtres, pagination ; {data, count} (l’agrégateur les siens, super admin et admin tous)',
        params: z.object({
          userId: z.guid({ message: INVALID }),
          type: z.enum(['LIVRAISON'], { message: INVALID }),
        }),
        querystring: smartsQuery,
        response: { 200: z.object({ data: z.array(smartAnswer), count: z.number().int() }) },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.read)],
    },
    async (request) =>
      queries.smarts(request.actor!, request.params.userId, {
        page: request.query.page,
        limit: request.query.limit,
        filter: request.query.filters,
        q: request.query.q,
        onlyParent: request.query.onlyParent,
      }),
  );

  app.patch(
    '/contracts/delivery-contract/:id/confirm',
    {
      schema: {
        tags,
        security,
        summary:
          'Confirmer un contrat de livraison (le producteur ou sa coopérative avec le code reçu par le producteur) : En attente → prêt pour la livraison',
        params: contractParams,
        body: z.object({ code: z.string().max(20).optional() }).nullish(),
        response: { 200: contractAnswer },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.confirm)],
    },
    async (request) => commands.confirm(request.actor!, request.params.id, request.body?.code),
  );

  app.post(
    '/contracts/delivery-contract/:id/acceptance-code',
    {
      schema: {
        tags,
        security,
        summary:
          'Renvoyer le code d’acceptation au producteur (l’agrégateur, la coopérative) : le nouveau code remplace l’ancien ; un par minute, 5 par contrat',
        params: contractParams,
        response: {
          200: z.object({ contractId: z.string(), reference: z.string(), phone: z.string() }),
        },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.resendCode)],
    },
    async (request) => commands.resendCode(request.actor!, request.params.id),
  );

  app.patch(
    '/contracts/delivery-contract/:id/delivery',
    {
      schema: {
        tags,
        security,
        summary:
          'Enregistrer la livraison pesée (l’agrégateur du contrat) : quantité en tonnes et date ; prêt pour la livraison → Livraison disponible',
        params: contractParams,
        body: deliveryBody,
        response: { 200: contractAnswer },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.deliver)],
    },
    async (request) =>
      commands.recordDelivery(request.actor!, request.params.id, {
        quantity: request.body.quantity,
        deliveredOn: request.body.deliveredOn,
      }),
  );

  app.delete(
    '/contracts/delivery-contract/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Annuler un contrat de livraison (l’agrégateur du contrat) : libère sa réservation ; un contrat livré ne peut plus être annulé',
        params: contractParams,
        response: { 200: contractAnswer },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.cancel)],
    },
    async (request) => commands.cancel(request.actor!, request.params.id),
  );

  app.get(
    '/grower/contracts/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Contrats d’un producteur : ses contrats de livraison et ses avances et financements (dettes), du plus récent ; même périmètre que la fiche du producteur',
        params: z.object({ id: z.guid({ message: INVALID }) }),
        querystring: growerContractsQuery,
        response: { 200: z.object({ data: z.array(growerContractItem), count: z.number() }) },
      },
      preHandler: [scope.requireRoles(...GROWER_ROUTE_ROLES.read)],
    },
    async (request) => {
      await requireReadableGrower(scope.deps.db, request.actor!, request.params.id);
      return queries.growerContracts(request.params.id, {
        page: request.query.page,
        limit: request.query.limit,
        q: request.query.q,
      });
    },
  );

  app.get(
    '/contracts/delivery-contract/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Un contrat de livraison (super admin, admin ; l’agrégateur le sien ; le producteur le sien et sa coopérative ceux de ses producteurs, qui le confirment)',
        params: z.object({ id: storableString().min(1).max(100) }),
        response: { 200: detailAnswer },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.detail)],
    },
    async (request) => queries.detail(request.actor!, request.params.id),
  );

  app.get(
    '/contracts/smarts/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Un contrat de livraison en smart contract (même périmètre que le contrat : super admin, admin, son agrégateur, son producteur et sa coopérative)',
        params: contractParams,
        response: { 200: smartAnswer },
      },
      preHandler: [scope.requireRoles(...CONTRACT_ROUTE_ROLES.detail)],
    },
    async (request) => queries.smartById(request.actor!, request.params.id),
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The contracts' background work (tests drive the runners and the clock through them). */
    contracts: {
      runs: ContractRuns;
      runner: ContractRunRunner;
      settler: ContractSettler;
      outOfTime: OutOfTimeRunner;
    };
  }
}

/**
 * The contracts' routes under /api, and without REDIS_URL the contract runs and the OUTTIME
 * sweep on in-process loops (with REDIS_URL the worker runs them: the module's `jobs`).
 */
export const registerContracts: HttpRegistration = async (app) => {
  const { config, logger, redis } = app.deps;
  const commands = new DeliveryContractCommands(
    narrowDb<ContractFactsTables>()(app.deps.db),
    app.commands,
    app.deps.clock,
    createSms(config, app.deps.db, logger),
    AcceptanceCodes.fromSecret(config.JWT_SECRET),
  );
  const queries = new ContractQueries(
    narrowDb<ContractQueryTables>()(app.deps.db),
    app.commands.store,
  );
  const background = contractsBackground({
    db: app.deps.db,
    pipeline: app.commands,
    publish: redis ? redisPushPublisher(redis) : pgPushPublisher(app.deps.db),
    logger,
    limits: { maxCommandAmount: config.MAX_COMMAND_AMOUNT, maxBalance: config.MAX_BALANCE },
    ...(app.deps.clock ? { clock: app.deps.clock } : {}),
  });
  app.decorate('contracts', background);
  if (!config.REDIS_URL) {
    const loops = contractLoops(background, logger, app.deps.backgroundThread?.foreground);
    if (config.NODE_ENV !== 'test') {
      app.addHook('onReady', async () => loops.forEach((l) => l.start()));
    }
    app.addHook('onClose', async () => {
      await Promise.all(loops.map((l) => l.stop()));
    });
  }
  await app.register(async (scope) => contractRoutes(scope, commands, queries, background), {
    prefix: '/api',
  });
  await app.register(async (scope) => contractPdfRoutes(scope), { prefix: '/api' });
  const collection = new CollectionService(
    narrowDb<CollectionTables>()(app.deps.db),
    background.settler,
    app.deps.clock,
  );
  await app.register(async (scope) => collectionRoutes(scope, collection), { prefix: '/api' });
};
