import { describe, expect, it } from 'vitest';
import { ROLES } from '../auth/roles.js';
import { buildMenu } from './menu.js';
import { ROUTES } from './routes.js';

const everything = ROUTES.map((r) => ({ ...r, available: true }));
/** Only the identity screens (this issue), whatever later issues turn on. */
const identityOnly = ROUTES.map((r) => ({ ...r, available: ['users', 'profile'].includes(r.key) }));
const keys = (role: string, cooperative = false) => {
  const menu = buildMenu({ role, cooperative }, everything);
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
