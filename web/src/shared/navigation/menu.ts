import type { RoleCode } from '../auth/roles.js';
import { NAV_GROUPS, ROUTES, type NavGroup, type NavRoute } from './routes.js';

export interface MenuViewer {
  role: string;
  /** The user's organisation is a cooperative. */
  cooperative?: boolean;
}

export function canAccess(route: NavRoute, role: string): boolean {
  return route.roles === 'all' || route.roles.includes(role as RoleCode);
}

export interface Menu {
  top: NavRoute[];
  groups: { group: NavGroup; items: NavRoute[] }[];
}

/**
 * The side navigation of a user: available menu routes whose role list holds
 * the user's role, inside groups whose tag list holds it; empty groups drop.
 */
export function buildMenu(viewer: MenuViewer, routes = ROUTES, groups = NAV_GROUPS): Menu {
  const visible = routes.filter(
    (r) =>
      r.menu &&
      r.available &&
      canAccess(r, viewer.role) &&
      !(r.hiddenForCooperative && viewer.cooperative),
  );
  return {
    top: visible.filter((r) => r.group === null),
    groups: groups
      .filter((g) => g.roles.includes(viewer.role as RoleCode))
      .map((group) => ({ group, items: visible.filter((r) => r.group === group.key) }))
      .filter((g) => g.items.length > 0),
  };
}
