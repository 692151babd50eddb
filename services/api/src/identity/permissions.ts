import { ROLE, ROLE_CODES, type RoleCode } from '../kernel/roles.js';

/**
 * Who may call what: the single table the routes use for their role guard and
 * the role × route test matrix reads. Reach (same cluster, not an admin, self) is
 * checked by the functions below; which field of a user each may change, and which
 * role each may assign, by field-rules.ts, which builds on them.
 */
export const ROUTE_ROLES = {
  /**
   * POST users/invitation/signup?typeUser=user, DELETE users/{id}, the activation toggle, and
   * PATCH users/{id} on someone else (every signed-in user may PATCH itself). The aggregator
   * and the SFD manage their own organisation's staff only.
   */
  manageUsers: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.CLUSTER_MANAGER, ROLE.INDUSTRIAL, ROLE.SFD],
  /** GET users: all, a cluster's, or an organisation's staff (see userListScope). */
  listUsers: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.CLUSTER_MANAGER, ROLE.INDUSTRIAL, ROLE.SFD],
  /** GET users/cluster/{clusterId}. */
  clusterUsers: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.CLUSTER_MANAGER],
  /** GET users/count-inactives. */
  countInactives: [ROLE.SUPER_ADMIN],
  /** GET users/industrials. */
  industrials: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.INDUSTRIAL, ROLE.SFD],
  /** GET clusters, GET organizations (the user form's selects). */
  referenceLists: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.CLUSTER_MANAGER],
  /** GET users/{id}/audit: the account’s audit events; an organisation’s accountant reads its organisation’s only (audit.ts, readsEveryAudit). */
  audit: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.ACCOUNTING],
  /** GET users/{id}/reset-pin: a grower of the caller's cluster (spec §6: only the cluster manager). */
  resetPin: [ROLE.CLUSTER_MANAGER],
} as const satisfies Record<string, readonly RoleCode[]>;

export const ADMIN_ROLES: readonly RoleCode[] = [ROLE.SUPER_ADMIN, ROLE.ADMIN];

/** An organisation's staff: what its aggregator or SFD registers and manages. */
export const STAFF_ROLES: readonly RoleCode[] = [ROLE.SECRETARY, ROLE.ACCOUNTING, ROLE.DIRECTOR];

/**
 * Members: the actors staff register through identity's members face (members.ts) — growers,
 * carriers, and the representatives of cooperatives and input suppliers. A phone identifies
 * each (unique among them), and their payout accounts change only through a four-eyes request.
 */
export const MEMBER_ROLES = [
  ROLE.GROWER,
  ROLE.CARRIER,
  ROLE.FARMER_ORGANIZATION,
  ROLE.INPUT_PROVIDER,
] as const satisfies readonly RoleCode[];
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const isMemberRole = (role: RoleCode): role is MemberRole =>
  (MEMBER_ROLES as readonly RoleCode[]).includes(role);

/**
 * Members without a web sign-in: growers and carriers reach their account by phone and PIN
 * (mobile channel). No password link is ever sent to them; staff in reach edit their names,
 * phone, e-mail and NIP (field-rules.ts mayEditMember).
 */
export const PIN_ROLES: readonly RoleCode[] = [ROLE.GROWER, ROLE.CARRIER];

/** The roles that manage their own organisation's staff (and nobody else). */
export const ORGANIZATION_MANAGERS: readonly RoleCode[] = [ROLE.INDUSTRIAL, ROLE.SFD];

export interface Party {
  id: string;
  role: RoleCode;
  clusterId: string | null;
  /** The user's organisation (absent = none): an aggregator's or SFD's staff share it. */
  organizationId?: string | null;
}

const isAdminRole = (role: RoleCode) => ADMIN_ROLES.includes(role);
export const isOrganizationManager = (role: RoleCode) => ORGANIZATION_MANAGERS.includes(role);

/** `target` is staff of `actor`'s organisation (an organisation is needed on both sides). */
function isStaffOf(actor: Party, target: Party): boolean {
  return (
    !!actor.organizationId &&
    target.organizationId === actor.organizationId &&
    STAFF_ROLES.includes(target.role)
  );
}

/**
 * Why `actor`, a manager, reaches nobody yet: a cluster manager without a cluster (a
 * self-registered one, until an administrator assigns it one), an aggregator or SFD without
 * an organisation. Undefined when nothing is missing.
 */
export function missingScope(actor: Party): 'NO_CLUSTER' | 'NO_ORGANIZATION' | undefined {
  if (actor.role === ROLE.CLUSTER_MANAGER && !actor.clusterId) return 'NO_CLUSTER';
  if (isOrganizationManager(actor.role) && !actor.organizationId) return 'NO_ORGANIZATION';
  return undefined;
}

/** May `actor` see `target`? Self always; super admin all; admin all but super admins; a cluster manager its cluster's non-admins. */
export function canSeeUser(actor: Party, target: Party): boolean {
  if (actor.id === target.id) return true;
  return canManageUser(actor, target);
}

/** May `actor` edit, delete or (de)activate `target`? */
export function canManageUser(actor: Party, target: Party): boolean {
  switch (actor.role) {
    case ROLE.SUPER_ADMIN:
      return true;
    case ROLE.ADMIN:
      return target.role !== ROLE.SUPER_ADMIN;
    case ROLE.CLUSTER_MANAGER:
      return (
        actor.clusterId !== null &&
        target.clusterId === actor.clusterId &&
        !isAdminRole(target.role) &&
        (target.role !== ROLE.CLUSTER_MANAGER || target.id === actor.id)
      );
    case ROLE.INDUSTRIAL:
    case ROLE.SFD:
      return isStaffOf(actor, target);
    default:
      return false;
  }
}

/** The roles `actor` is offered in the role list. */
export function visibleRoles<T extends { code: RoleCode }>(actor: Party, roles: T[]): T[] {
  return actor.role === ROLE.SUPER_ADMIN ? roles : roles.filter((r) => r.code !== ROLE.SUPER_ADMIN);
}

/** What part of the user list `actor` sees, or null for none. */
export function userListScope(
  actor: Party,
): { clusterId?: string; organizationId?: string; excludeRoles?: RoleCode[] } | null {
  if (actor.role === ROLE.SUPER_ADMIN || actor.role === ROLE.ADMIN) return {};
  if (actor.role === ROLE.CLUSTER_MANAGER && actor.clusterId) {
    return { clusterId: actor.clusterId, excludeRoles: [...ADMIN_ROLES] };
  }
  if (isOrganizationManager(actor.role) && actor.organizationId) {
    return {
      organizationId: actor.organizationId,
      excludeRoles: ROLE_CODES.filter((role) => !STAFF_ROLES.includes(role)),
    };
  }
  return null;
}
