import { NotFoundError } from '@filiere/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../kernel/app-deps.js';
import { NOT_FOUND } from '../chain.js';
import { placesOf } from '../places.js';

/**
 * Benin's territorial reference data under /api, for any signed-in user. The call names are
 * the spec's (actors-contracts-admin §7 "Locations"): each segment of a path is one level
 * down the tree, département → commune → arrondissement → village; a singular path is one
 * place with the chain above it, a plural one the places under the last code of the path.
 *
 *   GET departments                      the departments
 *   GET commons/{department}             the communes of a department
 *   GET common/{commune}                 a commune        → {department, commune}
 *   GET borough/{arrondissement}         an arrondissement → {department, commune, arrondissement}
 *   GET district/{village}               a village        → {department, …, village}
 *   GET boroughs/{department}/{commune}  the arrondissements of a commune
 *   GET districts/{department}/{commune}/{arrondissement}   the villages of an arrondissement
 *
 * Lists answer {data, count}, sorted by name, filtered by `q` (accents and case ignored). A
 * path whose codes do not nest (a commune of another department…) is a 404, as an unknown code.
 */
const tags = ['locations'];
const security = [{ bearer: [] }];

const code = (pattern: RegExp, message: string) => z.string().regex(pattern, message);
const departmentCode = code(/^D\d{2}$/, 'Code de département invalide (D01 à D12)');
const communeCode = code(/^C\d{3}$/, 'Code de commune invalide (C suivi de 3 chiffres)');
const arrondissementCode = code(
  /^A\d{3}$/,
  "Code d'arrondissement invalide (A suivi de 3 chiffres)",
);
const villageCode = code(/^A\d{3}-\d{3}$/, 'Code de village invalide (A000-000)');
const search = z.object({
  q: z.string().max(100, 'La recherche doit avoir au plus 100 caractères').optional(),
});

const place = z.object({ code: z.string(), name: z.string() });
const list = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ data: z.array(item), count: z.number() });
const commune = place.extend({ departmentCode: z.string() });
const arrondissement = place.extend({ communeCode: z.string() });
const village = place.extend({ arrondissementCode: z.string() });
const communeChain = z.object({ department: place, commune: place });
const arrondissementChain = communeChain.extend({ arrondissement: place });
const villageChain = arrondissementChain.extend({ village: place });

const listOf = <T>(data: T[]) => ({ data, count: data.length });
const found = <T>(value: T | undefined, message: string): T => {
  if (value === undefined) throw new NotFoundError(message);
  return value;
};

export async function registerLocations(app: FastifyInstance & { deps: AppDeps }): Promise<void> {
  const places = placesOf(app.deps.db);
  await app.register(
    async (scope) => {
      const api = scope.withTypeProvider<ZodTypeProvider>();
      const signedIn = { preHandler: [app.authenticate] };

      api.get(
        '/departments',
        {
          schema: {
            tags,
            security,
            summary: 'Les départements',
            querystring: search,
            response: { 200: list(place) },
          },
          ...signedIn,
        },
        async (request) => listOf(await places.departments(request.query.q)),
      );

      api.get(
        '/commons/:departmentCode',
        {
          schema: {
            tags,
            security,
            summary: "Les communes d'un département",
            params: z.object({ departmentCode }),
            querystring: search,
            response: { 200: list(commune) },
          },
          ...signedIn,
        },
        async (request) =>
          listOf(
            found(
              await places.communes(request.params.departmentCode, request.query.q),
              NOT_FOUND.department,
            ),
          ),
      );

      api.get(
        '/common/:communeCode',
        {
          schema: {
            tags,
            security,
            summary: 'Une commune et son département',
            params: z.object({ communeCode }),
            response: { 200: communeChain },
          },
          ...signedIn,
        },
        async (request) =>
          found(await places.commune(request.params.communeCode), NOT_FOUND.commune),
      );

      api.get(
        '/borough/:arrondissementCode',
        {
          schema: {
            tags,
            security,
            summary: 'Un arrondissement, sa commune et son département',
            params: z.object({ arrondissementCode }),
            response: { 200: arrondissementChain },
          },
          ...signedIn,
        },
        async (request) =>
          found(
            await places.arrondissement(request.params.arrondissementCode),
            NOT_FOUND.arrondissement,
          ),
      );

      api.get(
        '/district/:villageCode',
        {
          schema: {
            tags,
            security,
            summary: 'Un village et ses niveaux supérieurs',
            params: z.object({ villageCode }),
            response: { 200: villageChain },
          },
          ...signedIn,
        },
        async (request) =>
          found(await places.village(request.params.villageCode), NOT_FOUND.village),
      );

      api.get(
        '/boroughs/:departmentCode/:communeCode',
        {
          schema: {
            tags,
            security,
            summary: "Les arrondissements d'une commune",
            params: z.object({ departmentCode, communeCode }),
            querystring: search,
            response: { 200: list(arrondissement) },
          },
          ...signedIn,
        },
        async (request) => {
          const { departmentCode, communeCode } = request.params;
          const chain = await places.commune(communeCode);
          if (chain?.department.code !== departmentCode) throw new NotFoundError(NOT_FOUND.commune);
          return listOf(
            found(await places.arrondissements(communeCode, request.query.q), NOT_FOUND.commune),
          );
        },
      );

      api.get(
        '/districts/:departmentCode/:communeCode/:arrondissementCode',
        {
          schema: {
            tags,
            security,
            summary: "Les villages d'un arrondissement",
            params: z.object({ departmentCode, communeCode, arrondissementCode }),
            querystring: search,
            response: { 200: list(village) },
          },
          ...signedIn,
        },
        async (request) => {
          const { departmentCode, communeCode, arrondissementCode } = request.params;
          const chain = await places.arrondissement(arrondissementCode);
          if (chain?.department.code !== departmentCode || chain.commune.code !== communeCode) {
            throw new NotFoundError(NOT_FOUND.arrondissement);
          }
          return listOf(
            found(
              await places.villages(arrondissementCode, request.query.q),
              NOT_FOUND.arrondissement,
            ),
          );
        },
      );
    },
    { prefix: '/api' },
  );
}
