import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Generator, getConfig } from '@tanstack/router-generator';
import { describe, expect, it } from 'vitest';
import { routerConfig } from '../../../scripts/router-config.js';
import { ROLES } from '../auth/roles.js';
import { buildMenu } from './menu.js';
import { FILE_ROUTE_PATHS, routePathOfFile } from './route-files.js';
import { ROUTES } from './routes.js';

/** Route trees as fixtures: every screen of the spec, or only the identity screens. */
const everything = new Set(ROUTES.map((r) => r.path));
const identityOnly = new Set(['/profile', '/utilisateurs']);
const keys = (role: string, cooperative = false, paths: ReadonlySet<string> = everything) => {
  const menu = buildMenu({ role, cooperative }, paths);
  return [...menu.top, ...menu.groups.flatMap((g) => g.items)].map((r) => r.key);
};

describe('side navigation from the route table', () => {
  it('shows Utilisateurs (Gestion) to the roles of its route and group', () => {
    for (const role of [ROLES.SUPER_ADMIN, ROLES.CLUSTER_MANAGER, ROLES.ADMIN, ROLES.SFD]) {
      const menu = buildMenu({ role }, identityOnly);
      expect(menu.groups.map((g) => g.group.key)).toEqual(['management']);
      expect(menu.groups[0]!.items.map((r) => r.key)).toEqual(['users']);
    }
  });
  it('hides the Gestion group from roles outside its tag list', () => {
    expect(buildMenu({ role: ROLES.INDUSTRIAL }, identityOnly).groups).toEqual([]);
    expect(buildMenu({ role: ROLES.GROWER }, identityOnly).groups).toEqual([]);
  });
  it('keeps super-admin entries from a cluster manager once every screen exists', () => {
    const cm = keys(ROLES.CLUSTER_MANAGER);
    expect(cm).not.toContain('adminSupplies');
    expect(cm).not.toContain('reporting');
    expect(keys(ROLES.SUPER_ADMIN)).toEqual(expect.arrayContaining(['adminSupplies', 'reporting']));
  });
  it('shows Financements only to the aggregator and hides cooperatives from cooperatives', () => {
    expect(keys(ROLES.INDUSTRIAL)).toContain('financings');
    expect(keys(ROLES.ADMIN)).not.toContain('financings');
    expect(keys(ROLES.SUPER_ADMIN)).toContain('cooperatives');
    expect(keys(ROLES.SUPER_ADMIN, true)).not.toContain('cooperatives');
  });
});

describe('menus show each role its work', () => {
  const group = (role: string, key: string) =>
    buildMenu({ role }, FILE_ROUTE_PATHS)
      .groups.find((g) => g.group.key === key)
      ?.items.map((r) => r.key) ?? [];
  it("gives the input provider 'Demandes d'intrants', its deliveries by code", () => {
    expect(group(ROLES.INPUT_PROVIDER, 'activities')).toEqual(['inputDeliveries']);
    // The growers' request lists are not the provider's (the server lists them to handlers).
    expect(keys(ROLES.INPUT_PROVIDER, false, FILE_ROUTE_PATHS)).not.toContain('inputRequests');
  });
  it("gives the aggregator its growers' request lists", () => {
    expect(group(ROLES.INDUSTRIAL, 'requests')).toEqual(['inputRequests', 'pineappleRequests']);
    expect(group(ROLES.FARMER_ORGANIZATION, 'requests')).toEqual([
      'inputRequests',
      'pineappleRequests',
    ]);
  });
  it('gives the super admin and an admin the Contrats group, the template to the super admin', () => {
    const shared = [
      'deliveryContracts',
      'pineappleAdvanceContracts',
      'contractBatches',
      'inputAdvanceContracts',
      'carriageContracts',
      'inputSupplyContracts',
    ];
    expect(group(ROLES.SUPER_ADMIN, 'contracts')).toEqual([...shared, 'contractTerms']);
    expect(group(ROLES.ADMIN, 'contracts')).toEqual(shared);
  });
});

describe('the cluster screens need a cluster', () => {
  it("leaves 'Paramètres' and 'Configurer mon cluster' out without a cluster", () => {
    const management = (role: string, hasCluster: boolean) =>
      buildMenu({ role, hasCluster }, FILE_ROUTE_PATHS)
        .groups.find((g) => g.group.key === 'management')
        ?.items.map((r) => r.key) ?? [];
    expect(management(ROLES.SFD, true)).toContain('clusterSettings');
    expect(management(ROLES.SFD, false)).not.toContain('clusterSettings');
    expect(management(ROLES.CLUSTER_MANAGER, true)).toContain('clusterConfig');
    expect(management(ROLES.CLUSTER_MANAGER, false)).not.toContain('clusterConfig');
    expect(management(ROLES.SFD, false)).toContain('users');
  });
});

describe('menu entries follow the route files', () => {
  it('reads a route file name as TanStack Router does', () => {
    expect(routePathOfFile('../../routes/_app/financements.tsx')).toBe('/financements');
    expect(routePathOfFile('../../routes/_app/paiements-effectues/index.tsx')).toBe(
      '/paiements-effectues',
    );
    expect(routePathOfFile('../../routes/_app/paiements-effectues/$id/show.tsx')).toBe(
      '/paiements-effectues/$id/show',
    );
    expect(routePathOfFile('../../routes/_app/contrats.livraison.tsx')).toBe('/contrats/livraison');
    expect(routePathOfFile('../../routes/_app/(actors)/producteurs/route.tsx')).toBe(
      '/producteurs',
    );
    expect(routePathOfFile('../../routes/_app.tsx')).toBe('/');
    expect(routePathOfFile('../../routes/__root.tsx')).toBeNull();
    expect(routePathOfFile('../../routes/_app/-guard.ts')).toBeNull();
    expect(routePathOfFile('../../routes/-helpers/search.ts')).toBeNull();
  });

  it('gives the paths of the router’s generated route tree', async () => {
    // The route tree as `npm run typecheck` and the Vite plugin generate it, then loaded.
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const config = getConfig({ target: 'react', ...routerConfig, disableLogging: true }, root);
    await new Generator({ config, root }).run();
    const { routeTree } = await import('../../routeTree.gen.js');
    const { createRouter } = await import('@tanstack/react-router');
    const router = createRouter({
      routeTree,
      context: { queryClient: undefined as never, loadScreens: () => undefined },
    });
    expect([...FILE_ROUTE_PATHS].sort()).toEqual(Object.keys(router.routesByPath).sort());
  }, 60_000);

  it('shows an entry exactly when its route file exists and the role may see it', () => {
    // Today's route files: the dashboard first, for every role.
    expect(keys(ROLES.INDUSTRIAL, false, FILE_ROUTE_PATHS)).toEqual([
      'dashboard',
      'industrialSeasons',
      'stores',
      'coverageZones',
      'collectionCentre',
      'harvestForecast',
      'inputDeliveries',
      'inputRequests',
      'pineappleRequests',
      'payments',
      'supplies',
      'financings',
      'deliveryContracts',
      'pineappleAdvanceContracts',
      'contractBatches',
      'inputAdvanceContracts',
      'carriageContracts',
      'inputSupplyContracts',
      'cooperatives',
      'carriers',
      'inputProviders',
    ]);
    expect(keys(ROLES.SUPER_ADMIN, false, FILE_ROUTE_PATHS)).toEqual([
      'dashboard',
      'audit',
      'reconciliation',
      'sms',
      'socialRequests',
      'seasons',
      'adminSupplies',
      'deliveryContracts',
      'pineappleAdvanceContracts',
      'contractBatches',
      'inputAdvanceContracts',
      'carriageContracts',
      'inputSupplyContracts',
      'contractTerms',
      'growers',
      'cooperatives',
      'carriers',
      'inputProviders',
      'users',
      'payoutRequests',
      'reporting',
    ]);
    expect(keys(ROLES.GROWER, false, FILE_ROUTE_PATHS)).toEqual([
      'dashboard',
      'fileRequest',
      'growerStatement',
    ]);
    // The default is the app's own route tree.
    expect(buildMenu({ role: ROLES.INDUSTRIAL })).toEqual(
      buildMenu({ role: ROLES.INDUSTRIAL }, FILE_ROUTE_PATHS),
    );
    // The route file is all it takes: without /dashboard, no role has the entry.
    const withoutDashboard = new Set([...FILE_ROUTE_PATHS].filter((p) => p !== '/dashboard'));
    expect(keys(ROLES.GROWER, false, withoutDashboard)).toEqual(['fileRequest', 'growerStatement']);
  });
});
