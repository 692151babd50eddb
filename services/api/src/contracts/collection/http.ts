import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storableString } from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import { QUALITY_GRADES } from '../domain/index.js';
import type { CollectionService } from './service.js';

const tags = ['contracts'];
const security = [{ bearer: [] }];
const REQUIRED = 'Ce champ est obligatoire';
const INVALID = 'Entré non valide';
const KILOGRAMS = 'Entrez le poids pesé en kilogrammes (un nombre entier supérieur à zéro)';

/** Who may use the collection centre's scale (decisions.md, "Centre de collecte"). */
export const COLLECTION_ROUTE_ROLES = {
  /** Finding growers, weighing and paying: the aggregator (its wallet pays). */
  scale: [ROLE.INDUSTRIAL],
} as const;

const weighingBody = z.object({
  contractId: z.guid({ message: REQUIRED }),
  /** Whole kilograms read on the scale. */
  kilograms: z.coerce
    .number({ message: KILOGRAMS })
    .int({ message: KILOGRAMS })
    .positive({ message: KILOGRAMS })
    .max(1_000_000_000, { message: KILOGRAMS }),
  grade: z.enum(QUALITY_GRADES, { message: 'Choisissez la qualité (A, B ou C)' }),
  weighedOn: z.iso.date({ message: REQUIRED }).optional(),
});
const confirmBody = weighingBody.extend({
  /** The day of the weighing, fixed when it was entered (a later replay sends the same). */
  weighedOn: z.iso.date({ message: REQUIRED }),
});
const recovery = z.object({
  debtId: z.string(),
  kind: z.string(),
  amount: z.number().int(),
  to: z.string(),
});
const weighingAnswer = z.object({
  contractId: z.string(),
  reference: z.string(),
  status: z.literal('COMPLETED'),
  deliveredKg: z.number().int(),
  grade: z.string(),
  weighedOn: z.string(),
  deliveredAmount: z.number().int(),
  recoveries: z.array(recovery),
  recoveredAmount: z.number().int(),
  growerNet: z.number().int(),
  payoutId: z.string().nullable(),
  payoutQueued: z.boolean(),
  alreadySettled: z.boolean(),
});
const growerAnswer = z.object({
  id: z.string(),
  reference: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  phone: z.string().nullable(),
  hasMobileMoney: z.boolean(),
  contracts: z.array(
    z.object({
      id: z.string(),
      reference: z.string(),
      quantity: z.string(),
      amount: z.number().int(),
      deliveryDate: z.string(),
    }),
  ),
});

const answerOf = (a: z.infer<typeof weighingAnswer>) => ({
  contractId: a.contractId,
  reference: a.reference,
  status: a.status,
  deliveredKg: a.deliveredKg,
  grade: a.grade,
  weighedOn: a.weighedOn,
  deliveredAmount: a.deliveredAmount,
  recoveries: a.recoveries.map((r) => ({
    debtId: r.debtId,
    kind: r.kind,
    amount: r.amount,
    to: r.to,
  })),
  recoveredAmount: a.recoveredAmount,
  growerNet: a.growerNet,
  payoutId: a.payoutId,
  payoutQueued: a.payoutQueued,
  alreadySettled: a.alreadySettled,
});

/** The collection centre's routes (under /api). */
export function collectionRoutes(scope: FastifyInstance, service: CollectionService): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const preHandler = [scope.requireRoles(...COLLECTION_ROUTE_ROLES.scale)];

  app.get(
    '/contracts/collection/growers',
    {
      schema: {
        tags,
        security,
        summary:
          'Centre de collecte : trouver un producteur de son cluster par son code (PRD-000123 ou ses chiffres, carte QR) ou son téléphone, avec ses contrats prêts pour la livraison (agrégateur)',
        querystring: z.object({ q: storableString().trim().min(1, { message: REQUIRED }).max(40) }),
        response: { 200: z.object({ data: z.array(growerAnswer) }) },
      },
      // No guess limit: it answers only growers of the caller's cluster, whom GET
      // grower/cluster/{id} already lists to him.
      preHandler,
    },
    async (request) => ({ data: await service.findGrowers(request.actor!, request.query.q) }),
  );

  app.get(
    '/contracts/collection/offline-day',
    {
      schema: {
        tags,
        security,
        summary:
          'Centre de collecte hors ligne : ce que le téléphone garde pour la journée — producteurs du cluster ayant un contrat ouvert avec l’agrégateur (nom, code, empreintes de leurs téléphones, jamais le numéro), leurs contrats, leurs dettes en cours et le solde disponible de l’agrégateur, pour calculer valeur, recouvrements et net sans réseau (agrégateur)',
        response: {
          200: z.object({
            issuedAt: z.string(),
            aggregatorUserId: z.string(),
            available: z.number().int(),
            growers: z.array(
              z.object({
                id: z.string(),
                reference: z.string(),
                firstname: z.string(),
                lastname: z.string(),
                phoneChecks: z.array(z.string()),
                hasMobileMoney: z.boolean(),
                contracts: z.array(
                  z.object({
                    id: z.string(),
                    reference: z.string(),
                    quantityKg: z.number().int(),
                    amount: z.number().int(),
                    deliveryDate: z.string(),
                  }),
                ),
                debts: z.array(
                  z.object({
                    id: z.string(),
                    kind: z.string(),
                    creditorUserId: z.string(),
                    outstanding: z.number().int(),
                    openedAt: z.string(),
                  }),
                ),
              }),
            ),
          }),
        },
      },
      preHandler,
    },
    async (request) => service.offlineDay(request.actor!),
  );

  app.get(
    '/contracts/collection/harvest-forecast',
    {
      schema: {
        tags,
        security,
        summary:
          'Prévisions de récolte : tonnes attendues par semaine et par centre d’achat (commune du producteur) — parcelles du cluster récoltées 5 mois après leur date de TIF, et contrats ouverts de l’agrégateur',
        querystring: z.object({
          weeks: z.coerce.number({ message: INVALID }).int().min(1).max(52).default(26),
        }),
        response: {
          200: z.object({
            data: z.array(
              z.object({
                centre: z.string(),
                week: z.string(),
                expectedKg: z.number().int(),
                contractedKg: z.number().int(),
              }),
            ),
          }),
        },
      },
      preHandler,
    },
    async (request) => ({
      data: await service.harvestForecast(request.actor!, request.query.weeks),
    }),
  );

  app.post(
    '/contracts/collection/preview',
    {
      schema: {
        tags,
        security,
        summary:
          'Centre de collecte : valeur, dettes recouvrées et net d’une pesée, calculés par la commande même de la confirmation sans rien écrire (agrégateur du contrat)',
        body: weighingBody,
        response: { 200: weighingAnswer },
      },
      preHandler,
    },
    async (request) => answerOf(await service.preview(request.actor!, request.body)),
  );

  app.post(
    '/contracts/collection/weighings',
    {
      schema: {
        tags,
        security,
        summary:
          'Centre de collecte : enregistrer la pesée et payer le contrat en une seule commande (livré et exécuté ensemble, paiement mobile money mis en file) ; Idempotency-Key obligatoire, générée à la saisie de la pesée : un rejeu répond le premier résultat sans rien refaire',
        headers: z.looseObject({
          'idempotency-key': storableString({ message: 'Clé d’idempotence manquante' })
            .min(1, { message: 'Clé d’idempotence manquante' })
            .max(200, { message: INVALID }),
        }),
        body: confirmBody,
        response: { 201: weighingAnswer },
      },
      preHandler,
    },
    async (request, reply) => {
      const answer = await service.confirm(
        request.actor!,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.status(201).send(answerOf(answer));
    },
  );
}
