import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import type { SignedInUser } from '../../kernel/actor.js';
import type { HttpRegistration } from '../../kernel/module.js';
import { ROLE } from '../../kernel/roles.js';
import { SeasonCommands } from '../commands/season-commands.js';
import { SEASON_MESSAGES, type SeasonActor } from '../domain/index.js';
import { availableBalanceReader, fundingOf, type AvailableBalanceOf } from '../funding.js';
import { InvitationExpiryRunner, invitationExpiryLoop } from '../jobs/expiry.js';
import { REACH_MESSAGES, SEASON_STAFF, SeasonQueries } from '../queries.js';
import { seasonsDb } from '../tables.js';
import {
  acceptAnswer,
  acceptBody,
  amountsAnswer,
  amountsQuery,
  attachBody,
  fundedLinkAnswer,
  idempotencyHeaders,
  industrialSeasonsAnswer,
  industrialSeasonsQuery,
  invitationsAnswer,
  linkAnswer,
  linksAnswer,
  messageAnswer,
  seasonAnswer,
  seasonBody,
  seasonDetailAnswer,
  seasonIdParams,
  seasonListAnswer,
  seasonListQuery,
  seasonPatchBody,
  seasonUserParams,
  userIdParams,
} from './schemas.js';

const tags = ['seasons'];
const security = [{ bearer: [] }];
const { SUPER_ADMIN, CLUSTER_MANAGER, INDUSTRIAL } = ROLE;

/** Who may call what (the generated authorization matrix reads the guards). */
export const SEASON_ROUTE_ROLES = {
  /** Create, edit, archive, activate, attach and detach: the super admin. */
  manage: [SUPER_ADMIN],
  /** The 'Saisons' list and the industrials of a season: super admin and cluster manager. */
  list: [SUPER_ADMIN, CLUSTER_MANAGER],
  /** A season's detail, an industrial's seasons and link: staff any, an industrial its own. */
  read: [SUPER_ADMIN, CLUSTER_MANAGER, INDUSTRIAL],
  /** The amount cards: the super admin (attach) and an invited industrial ('Modifier'). */
  amounts: [SUPER_ADMIN, INDUSTRIAL],
  /** Accepting, and the bell's invitations: the industrial. */
  accept: [INDUSTRIAL],
} as const;

const actorOf = (user: SignedInUser): SeasonActor => ({ userId: user.id, role: user.role_code });
const key = (headers: { 'idempotency-key'?: string | undefined }) => headers['idempotency-key'];

/** An industrial reads only its own links (403); staff read anyone's. */
function requireSelfOrStaff(actor: SeasonActor, userId: string): void {
  if (actor.userId !== userId && !SEASON_STAFF.includes(actor.role)) {
    throw new ForbiddenError(REACH_MESSAGES.notYourLinks);
  }
}

export function seasonRoutes(
  scope: FastifyInstance,
  commands: SeasonCommands,
  queries: SeasonQueries,
  availableBalanceOf: AvailableBalanceOf,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const guard = (roles: readonly (typeof ROLE)[keyof typeof ROLE][]) => [
    scope.requireRoles(...roles),
  ];

  app.get(
    '/seasons',
    {
      schema: {
        tags,
        security,
        summary:
          'Saisons (super admin, gestionnaire de cluster) : recherche par nom, statut, pagination ; sommes sur les agrégateurs',
        querystring: seasonListQuery,
        response: { 200: seasonListAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.list),
    },
    async (request) => queries.list(request.query),
  );

  app.post(
    '/clusters',
    {
      schema: {
        tags,
        security,
        summary: 'Créer une saison (le chemin d’origine dit « clusters ») ; 201',
        headers: idempotencyHeaders,
        body: seasonBody,
        response: { 201: seasonAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.manage),
    },
    async (request, reply) => {
      const season = await commands.create(
        actorOf(request.actor!),
        request.body,
        key(request.headers),
      );
      return reply.status(201).send(season);
    },
  );

  app.patch(
    '/clusters/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Modifier une saison (les champs donnés) ; prix et intrants figés après une acceptation',
        headers: idempotencyHeaders,
        params: seasonIdParams,
        body: seasonPatchBody,
        response: { 200: seasonAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.manage),
    },
    async (request) =>
      commands.edit(actorOf(request.actor!), request.params.id, request.body, key(request.headers)),
  );

  app.delete(
    '/clusters/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Archiver une saison (suppression logique : son historique reste)',
        headers: idempotencyHeaders,
        params: seasonIdParams,
        response: { 200: messageAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.manage),
    },
    async (request) => {
      await commands.archive(actorOf(request.actor!), request.params.id, key(request.headers));
      return { message: 'Campagne archivée avec succès' };
    },
  );

  app.post(
    '/clusters/activate-cluster/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Activer une saison (409 si elle l’est déjà)',
        headers: idempotencyHeaders,
        params: seasonIdParams,
        response: { 200: seasonAnswer.extend({ message: messageAnswer.shape.message }) },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.manage),
    },
    async (request) => {
      const season = await commands.activate(
        actorOf(request.actor!),
        request.params.id,
        key(request.headers),
      );
      return { ...season, message: `La saison ${season.label} a été activée avec succès` };
    },
  );

  app.get(
    '/clusters/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Détail d’une saison : intrants, agrégateurs et sommes (un agrégateur : la sienne seulement, avec ses chiffres)',
        params: seasonIdParams,
        response: { 200: seasonDetailAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.read),
    },
    async (request) => queries.detail(actorOf(request.actor!), request.params.id),
  );

  app.get(
    '/clusters/:id/linked-industrials',
    {
      schema: {
        tags,
        security,
        summary: 'Les agrégateurs d’une saison, avec quantité, montants et statut',
        params: seasonIdParams,
        response: { 200: linksAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.list),
    },
    async (request) => queries.linkedIndustrials(request.params.id),
  );

  app.get(
    '/seasons/:id/amounts',
    {
      schema: {
        tags,
        security,
        summary:
          'Les trois montants (total à payer, engrais, approvisionnement minimum) pour une quantité en kg, sans rien enregistrer',
        params: seasonIdParams,
        querystring: amountsQuery,
        response: { 200: amountsAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.amounts),
    },
    async (request) => {
      const actor = actorOf(request.actor!);
      // An unknown season is a 404 for everyone; an industrial previews only its own.
      const amounts = await commands.preview(request.params.id, request.query.quantity);
      if (actor.role === INDUSTRIAL) {
        const link = await queries.link(request.params.id, actor.userId);
        if (!link) throw new ForbiddenError(REACH_MESSAGES.notYourSeason);
      }
      return amounts;
    },
  );

  app.post(
    '/clusters/:id/industrial',
    {
      schema: {
        tags,
        security,
        summary:
          'Ajouter un agrégateur à la saison avec sa quantité (kg) : invitation PENDING, montants calculés par le serveur',
        headers: idempotencyHeaders,
        params: seasonIdParams,
        body: attachBody,
        response: { 201: linkAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.manage),
    },
    async (request, reply) => {
      const link = await commands.attach(
        actorOf(request.actor!),
        request.params.id,
        request.body,
        key(request.headers),
      );
      return reply.status(201).send(link);
    },
  );

  app.delete(
    '/clusters/delete-industrial-link/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Retirer un agrégateur d’une saison (tant qu’il n’a pas accepté)',
        headers: idempotencyHeaders,
        params: seasonIdParams,
        response: { 200: messageAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.manage),
    },
    async (request) => {
      await commands.detach(actorOf(request.actor!), request.params.id, key(request.headers));
      return { message: 'Agrégateur retiré de la saison' };
    },
  );

  app.get(
    '/clusters/industrial/:userId',
    {
      schema: {
        tags,
        security,
        summary:
          'Les saisons d’un agrégateur (« Financement de la saison ») : statut et montants de son lien',
        params: userIdParams,
        querystring: industrialSeasonsQuery,
        response: { 200: industrialSeasonsAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.read),
    },
    async (request) => {
      requireSelfOrStaff(actorOf(request.actor!), request.params.userId);
      return queries.ofIndustrial(request.params.userId, request.query);
    },
  );

  app.get(
    '/clusters/:id/industrial/:userId',
    {
      schema: {
        tags,
        security,
        summary:
          'La saison d’un agrégateur : son lien et son financement (solde disponible ≥ approvisionnement minimum)',
        params: seasonUserParams,
        response: { 200: fundedLinkAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.read),
    },
    async (request) => {
      requireSelfOrStaff(actorOf(request.actor!), request.params.userId);
      const link = await queries.link(request.params.id, request.params.userId);
      if (!link) throw new NotFoundError(SEASON_MESSAGES.linkNotFound);
      const available = await availableBalanceOf(link.userId);
      return { ...link, funding: fundingOf(available, link.minSupplyAmount) };
    },
  );

  app.get(
    '/seasons/invitations',
    {
      schema: {
        tags,
        security,
        summary: 'Mes invitations ouvertes (la cloche : « Vous avez été ajouté à la saison »)',
        response: { 200: invitationsAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.accept),
    },
    async (request) => queries.invitations(request.actor!.id, new Date()),
  );

  app.post(
    '/seasons/:id/accept',
    {
      schema: {
        tags,
        security,
        summary:
          'Accepter la saison (CONFIRMED, quel que soit le solde ; 422 une fois expirée ou déjà acceptée), avec le manque à approvisionner',
        headers: idempotencyHeaders,
        params: seasonIdParams,
        body: acceptBody,
        response: { 200: acceptAnswer },
      },
      preHandler: guard(SEASON_ROUTE_ROLES.accept),
    },
    async (request) => {
      const actor = actorOf(request.actor!);
      const link = await commands.accept(
        actor,
        request.params.id,
        request.body ?? {},
        key(request.headers),
      );
      const available = await availableBalanceOf(actor.userId);
      return { ...link, funding: fundingOf(available, link.minSupplyAmount) };
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The seasons' services (tests drive the expiry runner and the clock through them). */
    seasons: {
      commands: SeasonCommands;
      queries: SeasonQueries;
      expiry: InvitationExpiryRunner;
    };
  }
}

/**
 * The seasons' routes under /api, and without REDIS_URL the invitation expiry on an
 * in-process loop (with REDIS_URL the worker runs it: the module's `jobs`).
 */
export const registerSeasons: HttpRegistration = async (app) => {
  const { db: productDb, config, logger } = app.deps;
  const db = seasonsDb(productDb);
  const commands = new SeasonCommands({
    db,
    pipeline: app.commands,
    invitationDays: config.SEASON_INVITATION_DAYS,
    ...(app.deps.clock ? { now: app.deps.clock } : {}),
  });
  const queries = new SeasonQueries(db);
  const expiry = new InvitationExpiryRunner(commands, queries);
  app.decorate('seasons', { commands, queries, expiry });
  if (!config.REDIS_URL) {
    const loop = invitationExpiryLoop(expiry, logger);
    if (config.NODE_ENV !== 'test') app.addHook('onReady', async () => loop.start());
    app.addHook('onClose', () => loop.stop());
  }
  const availableBalanceOf = availableBalanceReader(db, app.eventStore);
  await app.register(async (scope) => seasonRoutes(scope, commands, queries, availableBalanceOf), {
    prefix: '/api',
  });
};
