import type { RoleCode } from '../auth/roles.js';
import { FILE_ROUTE_PATHS } from './route-files.js';
import { NAV_GROUPS, ROUTES, type NavGroup, type NavRoute } from './routes.js';

export interface MenuViewer {
  role: string;
  /** The user's organisation is a cooperative. */
  cooperative?: boolean;
  /** False when the user belongs to no cluster: the cluster's screens are left out. */
  hasCluster?: boolean;
}

export function canAccess(route: NavRoute, role: string): boolean {
  return route.roles === 'all' || route.roles.includes(role as RoleCode);
}

/** The route's screen exists: the app's route tree has its path. */
export function hasScreen(route: NavRoute, routePaths: ReadonlySet<string> = FILE_ROUTE_PATHS) {
  return routePaths.has(route.path);
}

export interface Menu {
  top: NavRoute[];
  groups: { group: NavGroup; items: NavRoute[] }[];
}

/**
 * The side navigation of a user: the menu routes of the route table whose path the app's
 * route tree has (`routePaths`: its route files) and whose role list holds the user's role,
 * inside groups whose tag list holds it; empty groups drop. A screen's entry thus appears
 * with its route file, never by a flag kept by hand.
 */
export function buildMenu(
  viewer: MenuViewer,
  routePaths: ReadonlySet<string> = FILE_ROUTE_PATHS,
  routes = ROUTES,
  groups = NAV_GROUPS,
): Menu {
  const visible = routes.filter(
    (r) =>
      r.menu &&
      hasScreen(r, routePaths) &&
      canAccess(r, viewer.role) &&
      !(r.hiddenForCooperative && viewer.cooperative) &&
      !(r.needsCluster && viewer.hasCluster === false),
  );
  return {
    top: visible.filter((r) => r.group === null),
    groups: groups
      .filter((g) => g.roles.includes(viewer.role as RoleCode))
      .map((group) => ({ group, items: visible.filter((r) => r.group === group.key) }))
      .filter((g) => g.items.length > 0),
  };
}
