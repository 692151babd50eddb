import { isPlatformAuditor } from '../kernel/actor.js';
import { ROLE, type RoleCode } from '../kernel/roles.js';
import {
  canManageUser,
  isMemberRole,
  isOrganizationManager,
  missingScope,
  PIN_ROLES,
  ROUTE_ROLES,
  STAFF_ROLES,
  type Party,
} from './permissions.js';

/**
 * Who may change which field of a user: the one place these rules are written. Every route
 * that writes a user (PATCH /users/{id}, the /users/me… profile routes, creation, activation,
 * deletion) asks here; the authorization matrix test is generated from these functions.
 * Pure: no I/O, the caller brings the parties (as the database has them now).
 *
 * - E-mail, password and the payout accounts (mobile money, bank, and the phone, which is
 *   the mobile money fallback of withdrawals) are the owner's alone, with the current
 *   password: changing another user's e-mail then asking a reset, or its payout number,
 *   would hand over its wallet. No exception for growers and carriers, whom staff register:
 *   their payout changes will go through a four-eyes request (a later issue); until then,
 *   only their owner changes them, like everybody's.
 * - Roles: nobody changes their own; an admin or a cluster manager assigns only roles below
 *   its own, to users in its reach whose current role is also below its own. The super
 *   admin assigns any role to others. An aggregator or an SFD assigns only the staff roles
 *   (secretary, accounting, director) to its own organisation's staff.
 * - The platform's auditor (ROLE_ACCOUNTING outside any organisation) reads every wallet and
 *   every audit trail: only the super admin makes one, by creation, by a role change or by
 *   taking an accountant out of its organisation. Everybody else's accountant belongs to an
 *   organisation and reads that organisation's wallets only.
 * - Cluster: only an admin or the super admin moves a user it manages, never itself.
 * - Activation and deletion: users in reach, never oneself.
 * - Names: oneself or users in reach. Organisation: users in reach, never one's own (an
 *   organisation gives its aggregator or SFD reach over its staff), and an aggregator or SFD
 *   never moves its staff out of its organisation.
 */

/** The fields of a user the rules speak about. */
export const USER_FIELDS = [
  'firstname',
  'lastname',
  'organization',
  'email',
  'password',
  'phone',
  'momoAccountNumber',
  'bankAccountNumber',
  'role',
  'cluster',
  'active',
] as const;
export type UserField = (typeof USER_FIELDS)[number];

/** Fields only their owner changes, proving it with the current password. */
export const OWNER_FIELDS = [
  'email',
  'password',
  'phone',
  'momoAccountNumber',
  'bankAccountNumber',
] as const satisfies readonly UserField[];
export type OwnerField = (typeof OWNER_FIELDS)[number];

/** Where withdrawals are paid: a change is mailed to the owner and audited as a payout change. */
export const PAYOUT_FIELDS = [
  'phone',
  'momoAccountNumber',
  'bankAccountNumber',
] as const satisfies readonly OwnerField[];
export type PayoutField = (typeof PAYOUT_FIELDS)[number];

export const RULE_MESSAGES = {
  ownerOnly:
    'Seul le titulaire du compte peut modifier son e-mail, son mot de passe, son téléphone et ses comptes de paiement',
  ownRole: 'Vous ne pouvez pas modifier votre propre rôle',
  roleRank: 'Vous ne pouvez attribuer qu’un rôle inférieur au vôtre',
  targetRank:
    'Vous ne pouvez pas modifier le rôle d’un utilisateur de rang égal ou supérieur au vôtre',
  ownCluster: 'Vous ne pouvez pas modifier votre propre cluster',
  clusterByManager: 'Un gestionnaire de cluster ne peut pas changer le cluster d’un utilisateur',
  clusterByOrganization:
    'Un agrégateur ou un SFD ne peut pas changer le cluster de ses collaborateurs',
  staffRoles:
    'Vous ne pouvez attribuer que les rôles Secrétaire, Comptable et Directeur aux collaborateurs de votre organisation',
  ownOrganization: 'Vous ne pouvez pas modifier votre propre organisation',
  organizationByManager: 'Vos collaborateurs restent dans votre organisation',
  noCluster:
    'Aucun cluster ne vous est attribué : un administrateur doit vous en attribuer un avant que vous puissiez gérer des utilisateurs',
  noOrganization:
    'Votre compte n’est rattaché à aucune organisation : un administrateur doit vous en attribuer une avant que vous puissiez gérer des utilisateurs',
  ownActive: 'Vous ne pouvez pas désactiver votre propre compte',
  ownDelete: 'Vous ne pouvez pas supprimer votre propre compte',
  reach: 'Cet utilisateur n’est pas dans votre périmètre',
  notMember:
    'Seuls les producteurs, transporteurs, organisations paysannes et fournisseurs d’intrant se modifient ici',
  memberOwnerOnly:
    'Seul le titulaire du compte peut modifier son e-mail et son téléphone (il se connecte lui-même à Filière)',
  ownMember: 'Modifiez votre propre compte depuis votre profil',
  pinGrowerOnly: 'Seul le code PIN d’un producteur peut être réinitialisé',
  pinByManager: 'Seul le gestionnaire de cluster du producteur peut réinitialiser son code PIN',
  notManager: 'Vous n’avez pas accès à cette ressource',
  platformAuditor:
    'Seul le super administrateur peut nommer l’auditeur de la plateforme : rattachez ce comptable à une organisation',
  currentPasswordRequired: 'Saisissez votre mot de passe actuel pour confirmer',
  currentPasswordWrong: 'Mot de passe actuel incorrect',
} as const;

export type Verdict =
  { allowed: true; needsCurrentPassword: boolean } | { allowed: false; message: string };

const allow = (needsCurrentPassword = false): Verdict => ({ allowed: true, needsCurrentPassword });
const refuse = (message: string): Verdict => ({ allowed: false, message });

/** Rank in the staff hierarchy: super admin 3, admin 2, cluster manager 1, every other role 0. */
export function rankOf(role: RoleCode): number {
  switch (role) {
    case ROLE.SUPER_ADMIN:
      return 3;
    case ROLE.ADMIN:
      return 2;
    case ROLE.CLUSTER_MANAGER:
      return 1;
    default:
      return 0;
  }
}

const isManager = (role: RoleCode) =>
  (ROUTE_ROLES.manageUsers as readonly RoleCode[]).includes(role);

/** May `actor` give `role` (to someone else; who is checked by the callers)? */
export function mayAssignRole(actor: Party, role: RoleCode): Verdict {
  if (!isManager(actor.role)) return refuse(RULE_MESSAGES.notManager);
  if (actor.role === ROLE.SUPER_ADMIN) return allow();
  if (isOrganizationManager(actor.role)) {
    return STAFF_ROLES.includes(role) ? allow() : refuse(RULE_MESSAGES.staffRoles);
  }
  return rankOf(role) < rankOf(actor.role) ? allow() : refuse(RULE_MESSAGES.roleRank);
}

/** What a manager lacks to reach anybody, as a refusal (reason NO_CLUSTER or NO_ORGANIZATION). */
export function missingScopeMessage(actor: Party): string | undefined {
  const missing = missingScope(actor);
  if (missing === 'NO_CLUSTER') return RULE_MESSAGES.noCluster;
  if (missing === 'NO_ORGANIZATION') return RULE_MESSAGES.noOrganization;
  return undefined;
}

/**
 * A change of one field of `target`, with the new value where the rule depends on it. A role
 * change names the organisation the user has once the whole request is applied, and an
 * organisation change the role (absent: the target's current one).
 */
export type FieldChange =
  | { field: 'role'; to: RoleCode; organizationId?: string | null }
  | { field: 'organization'; to: string | null; role?: RoleCode }
  | { field: 'cluster'; to: string | null }
  | { field: Exclude<UserField, 'role' | 'cluster' | 'organization'> };

/**
 * Refuses to anybody but the super admin a user that would end up the platform's auditor
 * (ROLE_ACCOUNTING without an organisation): its reach is every wallet and every audit trail.
 */
export function mayMakePlatformAuditor(
  actor: Party,
  role: RoleCode,
  organizationId: string | null,
): Verdict {
  if (actor.role === ROLE.SUPER_ADMIN) return allow();
  return isPlatformAuditor({ role_code: role, organization_id: organizationId })
    ? refuse(RULE_MESSAGES.platformAuditor)
    : allow();
}

/** May `actor` make `change` on the existing user `target`? */
export function mayChange(actor: Party, target: Party, change: FieldChange): Verdict {
  const self = actor.id === target.id;
  switch (change.field) {
    case 'email':
    case 'password':
    case 'phone':
    case 'momoAccountNumber':
    case 'bankAccountNumber':
      return self ? allow(true) : refuse(RULE_MESSAGES.ownerOnly);
    case 'role': {
      if (self) return refuse(RULE_MESSAGES.ownRole);
      if (!canManageUser(actor, target)) return refuse(RULE_MESSAGES.reach);
      // Its reach is its organisation's staff, whom it gives staff roles only.
      if (isOrganizationManager(actor.role)) return mayAssignRole(actor, change.to);
      if (actor.role !== ROLE.SUPER_ADMIN && rankOf(target.role) >= rankOf(actor.role)) {
        return refuse(RULE_MESSAGES.targetRank);
      }
      const assign = mayAssignRole(actor, change.to);
      if (!assign.allowed) return assign;
      return mayMakePlatformAuditor(
        actor,
        change.to,
        change.organizationId === undefined
          ? (target.organizationId ?? null)
          : change.organizationId,
      );
    }
    case 'cluster':
      if (self) return refuse(RULE_MESSAGES.ownCluster);
      if (!canManageUser(actor, target)) return refuse(RULE_MESSAGES.reach);
      if (actor.role === ROLE.CLUSTER_MANAGER) return refuse(RULE_MESSAGES.clusterByManager);
      if (isOrganizationManager(actor.role)) return refuse(RULE_MESSAGES.clusterByOrganization);
      return allow();
    case 'active':
      if (self) return refuse(RULE_MESSAGES.ownActive);
      return canManageUser(actor, target) ? allow() : refuse(RULE_MESSAGES.reach);
    case 'firstname':
    case 'lastname':
      return self || canManageUser(actor, target) ? allow() : refuse(RULE_MESSAGES.reach);
    case 'organization':
      if (self) return refuse(RULE_MESSAGES.ownOrganization);
      if (!canManageUser(actor, target)) return refuse(RULE_MESSAGES.reach);
      if (isOrganizationManager(actor.role)) return refuse(RULE_MESSAGES.organizationByManager);
      return mayMakePlatformAuditor(actor, change.role ?? target.role, change.to);
  }
}

/** May `actor` delete `target`? */
export function mayDelete(actor: Party, target: Party): Verdict {
  if (actor.id === target.id) return refuse(RULE_MESSAGES.ownDelete);
  return canManageUser(actor, target) ? allow() : refuse(RULE_MESSAGES.reach);
}

/**
 * May `actor` create a user of `role` in `clusterId` and `organizationId`? A cluster manager
 * creates in its own cluster only (an absent cluster means its own); an aggregator or an SFD
 * creates staff of its own organisation only (an absent organisation means its own). The
 * registrar sets the new account's initial e-mail, phone and payout accounts (there is no
 * owner yet); the `UserRegistered` event records them with the registrar's id.
 */
export function mayCreate(
  actor: Party,
  role: RoleCode,
  clusterId: string | null,
  organizationId: string | null = null,
): Verdict {
  const assign = mayAssignRole(actor, role);
  if (!assign.allowed) return assign;
  const missing = missingScopeMessage(actor);
  if (missing) return refuse(missing);
  if (actor.role === ROLE.CLUSTER_MANAGER) {
    if (clusterId !== null && clusterId !== actor.clusterId) return refuse(RULE_MESSAGES.reach);
  }
  if (isOrganizationManager(actor.role)) {
    if (organizationId !== null && organizationId !== actor.organizationId) {
      return refuse(RULE_MESSAGES.organizationByManager);
    }
  }
  return mayMakePlatformAuditor(actor, role, organizationOfNewUser(actor, organizationId));
}

/**
 * The cluster a new user of `actor` lands in: a cluster manager's, or, for an aggregator's
 * or SFD's staff, their employer's (they see what their organisation's cluster sees).
 */
export function clusterOfNewUser(actor: Party, clusterId: string | null): string | null {
  return actor.role === ROLE.CLUSTER_MANAGER || isOrganizationManager(actor.role)
    ? actor.clusterId
    : clusterId;
}

/** The organisation a new user of `actor` belongs to: an aggregator's or SFD's own for its staff. */
export function organizationOfNewUser(actor: Party, organizationId: string | null): string | null {
  return isOrganizationManager(actor.role) ? (actor.organizationId ?? null) : organizationId;
}

/**
 * The fields staff edit on a member (members.ts `update`, behind the growers', carriers',
 * cooperatives' and suppliers' edit forms). Never a payout account: those change only through
 * a four-eyes request (actors/payout/, `changePayout`).
 */
export const MEMBER_EDIT_FIELDS = ['firstname', 'lastname', 'nip', 'phone', 'email'] as const;
export type MemberEditField = (typeof MEMBER_EDIT_FIELDS)[number];

/**
 * May `actor` (staff) change `field` of the member `target`? Staff in reach (canManageUser:
 * the super admin and admins all, a cluster manager its cluster's) edit names and NIP of every
 * member, and the phone and e-mail of growers and carriers — who have no web sign-in (PIN
 * roles): no password link is ever sent to them, so a changed e-mail hands nothing over. A
 * cooperative's or supplier's representative signs in on the web: its e-mail and phone stay
 * its own (PATCH /users/me…). Nobody edits itself here. Reach on the actors' own rows (cluster,
 * cooperative) is the area's check, made before; this one is on the users row.
 */
export function mayEditMember(actor: Party, target: Party, field: MemberEditField): Verdict {
  if (!isMemberRole(target.role)) return refuse(RULE_MESSAGES.notMember);
  if (actor.id === target.id) return refuse(RULE_MESSAGES.ownMember);
  if (!canManageUser(actor, target)) return refuse(RULE_MESSAGES.reach);
  if ((field === 'email' || field === 'phone') && !PIN_ROLES.includes(target.role)) {
    return refuse(RULE_MESSAGES.memberOwnerOnly);
  }
  return allow();
}

/**
 * May `actor` reset the PIN of `target`? Only a cluster manager (spec §6), for a grower of its
 * own cluster (the grower's users.cluster_id, set with its growers row and moved with it).
 */
export function mayResetPin(actor: Party, target: Party): Verdict {
  if (actor.role !== ROLE.CLUSTER_MANAGER) return refuse(RULE_MESSAGES.pinByManager);
  const missing = missingScopeMessage(actor);
  if (missing) return refuse(missing);
  if (target.role !== ROLE.GROWER) return refuse(RULE_MESSAGES.pinGrowerOnly);
  if (target.clusterId !== actor.clusterId) return refuse(RULE_MESSAGES.reach);
  return allow();
}
