import { z } from 'zod';
import { ROLES, type RoleCode } from '../../../shared/auth/roles.js';
import type { Role, User } from '../../../shared/auth/user.js';
import { toE164, toLocalPhone } from '../../../shared/format/phone.js';
import { emailText, msg, phoneText, requiredText } from '../../../shared/validation/rules.js';
import type { UserInput } from '../api/users.js';

/**
 * 'Ajouter / Modifier un utilisateur': what the form holds and sends, and what each manager
 * may choose — the server's field rules (services/api/src/identity/field-rules.ts) decide;
 * the form only offers what they allow.
 */

/** An organisation's staff: what its aggregator or SFD adds and manages. */
export const STAFF_ROLES: readonly RoleCode[] = [ROLES.SECRETARY, ROLES.ACCOUNTING, ROLES.DIRECTOR];

/** The roles that manage their own organisation's staff. */
export const ORGANIZATION_MANAGERS: readonly RoleCode[] = [ROLES.INDUSTRIAL, ROLES.SFD];

/** Staff rank, as the server's field rules: a role is assigned only below one's own. */
const RANK: Partial<Record<RoleCode, number>> = {
  [ROLES.SUPER_ADMIN]: 3,
  [ROLES.ADMIN]: 2,
  [ROLES.CLUSTER_MANAGER]: 1,
};
const rankOf = (code: string | undefined) => RANK[code as RoleCode] ?? 0;

const isOrganizationManager = (code: string | undefined) =>
  ORGANIZATION_MANAGERS.includes(code as RoleCode);

/** Select values are strings: role ids (numbers in the API) travel as their decimal text. */
export const userFormSchema = z.object({
  lastname: requiredText(),
  firstname: requiredText(),
  email: emailText(),
  phone: phoneText(),
  roleId: z.string(msg.required).min(1, msg.required),
  organizationId: z.string(),
  clusterId: z.string(),
  momoAccountNumber: z.string().trim(),
  bankAccountNumber: z.string().trim(),
});
export type UserFormValues = z.infer<typeof userFormSchema>;

/** Editing: the owner's fields are read-only and not sent, so not checked either. */
export const userEditSchema = userFormSchema.extend({ email: z.string(), phone: z.string() });

export const emptyUserForm: UserFormValues = {
  lastname: '',
  firstname: '',
  email: '',
  phone: '',
  roleId: '',
  organizationId: '',
  clusterId: '',
  momoAccountNumber: '',
  bankAccountNumber: '',
};

export function toFormValues(user: User): UserFormValues {
  const roleId = user.roleId ?? user.role?.id;
  return {
    lastname: user.lastname,
    firstname: user.firstname,
    email: user.email ?? '',
    phone: toLocalPhone(user.phone),
    roleId: roleId == null ? '' : String(roleId),
    organizationId: user.organizationId ?? '',
    clusterId: user.clusterId ?? '',
    momoAccountNumber: user.momoAccountNumber ?? '',
    bankAccountNumber: user.bankAccountNumber ?? '',
  };
}

const opt = (s: string) => (s ? s : undefined);

export function toCreateInput(v: UserFormValues): UserInput {
  return {
    lastname: v.lastname,
    firstname: v.firstname,
    email: v.email,
    phone: toE164(v.phone),
    roleId: v.roleId,
    organizationId: opt(v.organizationId),
    clusterId: opt(v.clusterId),
    momoAccountNumber: opt(v.momoAccountNumber),
    bankAccountNumber: opt(v.bankAccountNumber),
  };
}

/**
 * On someone else's account, the e-mail, phone and payout accounts are their owner's alone
 * (the server's field rules): the edit form shows them read-only and never sends them. The
 * selects the editor may not change are not sent either (an empty select means "none").
 */
export function toEditInput(v: UserFormValues, fields: UserFormFields): Partial<UserInput> {
  return {
    lastname: v.lastname,
    firstname: v.firstname,
    roleId: v.roleId,
    ...(fields.organization ? { organizationId: v.organizationId } : {}),
    ...(fields.cluster ? { clusterId: v.clusterId } : {}),
  };
}

/** The message of the organisation select when a Comptable needs one (an i18n key). */
export const ACCOUNTANT_ORGANIZATION = 'users:form.accountantOrganization';

/**
 * The platform's auditor — a Comptable without an organisation — reads every wallet, so only
 * the super admin makes one (the server's field rules, mayMakePlatformAuditor): anybody else who
 * picks 'Comptable' chooses its organisation too. A user that already was the platform's
 * auditor keeps none while an administrator edits its names (that grants nothing). An
 * aggregator's or SFD's staff always get its organisation: no select, nothing to ask.
 */
export function organizationRequired(
  values: Pick<UserFormValues, 'roleId' | 'organizationId'>,
  roles: Role[],
  myRole: string | undefined,
  initial?: Pick<UserFormValues, 'roleId' | 'organizationId'>,
): boolean {
  if (myRole === ROLES.SUPER_ADMIN || isOrganizationManager(myRole)) return false;
  if (values.organizationId) return false;
  const role = roles.find((r) => String(r.id) === values.roleId);
  if (role?.code !== ROLES.ACCOUNTING) return false;
  return !(initial && initial.roleId === values.roleId && !initial.organizationId);
}

/** The form's schema for `myRole`: creation or edition, with the Comptable's organisation. */
export function userFormSchemaFor(
  isNew: boolean,
  roles: Role[],
  myRole: string | undefined,
  initial?: UserFormValues,
) {
  return (isNew ? userFormSchema : userEditSchema).superRefine((values, ctx) => {
    if (organizationRequired(values, roles, myRole, initial)) {
      ctx.addIssue({ code: 'custom', path: ['organizationId'], message: ACCOUNTANT_ORGANIZATION });
    }
  });
}

/** Which selects the form shows to `myRole` (the server fixes the others). */
export interface UserFormFields {
  /** The organisation: an aggregator's or SFD's staff are always its own. */
  organization: boolean;
  /** The cluster: only administrators move users; a cluster manager's stay in its cluster. */
  cluster: boolean;
}

export function formFieldsFor(myRole: string | undefined): UserFormFields {
  const admin = myRole === ROLES.SUPER_ADMIN || myRole === ROLES.ADMIN;
  return { organization: !isOrganizationManager(myRole), cluster: admin };
}

/** The roles `myRole` may give (plus the user's current one, so the select shows it). */
export function assignableRoles(
  roles: Role[],
  myRole: string | undefined,
  currentRoleId?: number | null,
): Role[] {
  return roles.filter((r) => {
    if (currentRoleId != null && r.id === currentRoleId) return true;
    if (myRole === ROLES.SUPER_ADMIN) return true;
    if (isOrganizationManager(myRole)) return STAFF_ROLES.includes(r.code as RoleCode);
    return rankOf(r.code) < rankOf(myRole);
  });
}

/**
 * What a manager lacks to manage anybody (the server answers 403 NO_CLUSTER or
 * NO_ORGANIZATION): a self-registered cluster manager has no cluster until an administrator
 * assigns one; an aggregator or SFD needs its organisation.
 */
export function missingScopeOf(
  user: Pick<User, 'clusterId' | 'organizationId'> & { role: { code: string } | null },
): 'noCluster' | 'noOrganization' | null {
  const code = user.role?.code;
  if (code === ROLES.CLUSTER_MANAGER && !user.clusterId) return 'noCluster';
  if (isOrganizationManager(code) && !user.organizationId) return 'noOrganization';
  return null;
}
