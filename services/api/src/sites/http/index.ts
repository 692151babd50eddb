import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../kernel/app-deps.js';
import { ROLE, type RoleCode } from '../../kernel/roles.js';
import {
  addressAnswer,
  addressQuery,
  idParams,
  listOf,
  listQuery,
  mapSettingsSchema,
  messageAnswer,
  siteBody,
  siteSchema,
  siteUpdateBody,
  zoneBody,
  zoneListQuery,
  zoneSchema,
  zoneUpdateBody,
} from '../schemas.js';
import { SitesService, sitesDb } from '../service.js';
import { mapSettings } from '../settings.js';

const tags = ['sites'];
const security = [{ bearer: [] }];

/** Who may call what (reach — own stores and zones, or all for the super admin — in the service). */
export const SITES_ROUTE_ROLES = {
  read: [ROLE.INDUSTRIAL, ROLE.SUPER_ADMIN],
  write: [ROLE.INDUSTRIAL],
} as const satisfies Record<string, readonly RoleCode[]>;

const userParams = z.object({ id: z.uuid('Entré non valide') });

/**
 * The sites under /api: the spec's store calls (seasons §7 "Deliveries by code, stores":
 * users/add-site, users/update-site, users/delete-site; the list as GET users/{id}/sites),
 * the coverage zones (plain paths, the spec shows none), the maps' settings and the address
 * search's offline fallback.
 */
export async function registerSites(app: FastifyInstance & { deps: AppDeps }) {
  const service = new SitesService(sitesDb(app.deps.db), app.commands);
  const config = app.deps.config;

  await app.register(
    async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      // At onRequest too: a caller without the role gets 401/403 before its body is read.
      const guard = (roles: readonly RoleCode[]) => {
        const check = scope.requireRoles(...roles);
        return { onRequest: [check], preHandler: [check] };
      };
      const signedIn = { onRequest: [scope.authenticate], preHandler: [scope.authenticate] };

      r.get(
        '/users/:id/sites',
        {
          schema: {
            tags,
            security,
            summary:
              'Les magasins d’un utilisateur (les siens ; tous pour le super administrateur), recherche q, page',
            params: userParams,
            querystring: listQuery,
            response: { 200: listOf(siteSchema) },
          },
          ...guard(SITES_ROUTE_ROLES.read),
        },
        async (request) => service.listSites(request.actor!, request.params.id, request.query),
      );

      r.get(
        '/users/site/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Un magasin',
            params: idParams,
            response: { 200: siteSchema },
          },
          ...guard(SITES_ROUTE_ROLES.read),
        },
        async (request) => service.getSite(request.actor!, request.params.id),
      );

      r.post(
        '/users/add-site/:id',
        {
          schema: {
            tags,
            security,
            summary:
              'Ajoute un magasin à l’utilisateur {id} (soi-même) : nom, adresse, latitude, longitude (arrondies à 7 décimales)',
            params: userParams,
            body: siteBody,
            response: { 201: siteSchema },
          },
          ...guard(SITES_ROUTE_ROLES.write),
        },
        async (request, reply) =>
          reply
            .code(201)
            .send(await service.addSite(request.actor!, request.params.id, request.body)),
      );

      r.patch(
        '/users/update-site/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Modifie un de ses magasins (champs donnés seulement)',
            params: idParams,
            body: siteUpdateBody,
            response: { 200: siteSchema },
          },
          ...guard(SITES_ROUTE_ROLES.write),
        },
        async (request) => service.updateSite(request.actor!, request.params.id, request.body),
      );

      r.delete(
        '/users/delete-site/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Supprime un de ses magasins',
            params: idParams,
            response: { 200: messageAnswer },
          },
          ...guard(SITES_ROUTE_ROLES.write),
        },
        async (request) => service.deleteSite(request.actor!, request.params.id),
      );

      r.get(
        '/coverage-zones',
        {
          schema: {
            tags,
            security,
            summary:
              'Ses zones de couverture (userId : celles d’un utilisateur, pour le super administrateur), recherche q, page',
            querystring: zoneListQuery,
            response: { 200: listOf(zoneSchema) },
          },
          ...guard(SITES_ROUTE_ROLES.read),
        },
        async (request) => service.listZones(request.actor!, request.query),
      );

      r.get(
        '/coverage-zones/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Une zone de couverture',
            params: idParams,
            response: { 200: zoneSchema },
          },
          ...guard(SITES_ROUTE_ROLES.read),
        },
        async (request) => service.getZone(request.actor!, request.params.id),
      );

      r.post(
        '/coverage-zones',
        {
          schema: {
            tags,
            security,
            summary:
              'Ajoute une zone de couverture : nom et au moins 3 points distincts (arrondis à 7 décimales, un point répété gardé une fois)',
            body: zoneBody,
            response: { 201: zoneSchema },
          },
          ...guard(SITES_ROUTE_ROLES.write),
        },
        async (request, reply) =>
          reply.code(201).send(await service.addZone(request.actor!, request.body)),
      );

      r.patch(
        '/coverage-zones/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Modifie une de ses zones de couverture',
            params: idParams,
            body: zoneUpdateBody,
            response: { 200: zoneSchema },
          },
          ...guard(SITES_ROUTE_ROLES.write),
        },
        async (request) => service.updateZone(request.actor!, request.params.id, request.body),
      );

      r.delete(
        '/coverage-zones/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Supprime une de ses zones de couverture',
            params: idParams,
            response: { 200: messageAnswer },
          },
          ...guard(SITES_ROUTE_ROLES.write),
        },
        async (request) => service.deleteZone(request.actor!, request.params.id),
      );

      r.get(
        '/sites/map-settings',
        {
          schema: {
            tags,
            security,
            summary:
              'Réglages des cartes : style (MAP_STYLE_URL), géocodeur (GEOCODER_URL), centre et zoom par défaut',
            response: { 200: mapSettingsSchema },
          },
          ...signedIn,
        },
        async () => mapSettings(config),
      );

      r.get(
        '/sites/address-search',
        {
          schema: {
            tags,
            security,
            summary:
              'Suggestions d’adresses hors ligne : villages, arrondissements et communes du référentiel des localités',
            querystring: addressQuery,
            response: { 200: addressAnswer },
          },
          ...signedIn,
        },
        async (request) => service.searchAddresses(request.query.q),
      );
    },
    { prefix: '/api' },
  );
}
