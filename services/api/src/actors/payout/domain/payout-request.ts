import { ROLE, type RoleCode } from '../../../kernel/roles.js';

/**
 * The four-eyes rules of a change of a member's payout account (redirecting a grower's
 * payments is the fraud to fear). Pure: the service brings the parties and the rows.
 *
 * - Who asks: staff who may see the member — the super admin, an admin (every member, or its
 *   cluster's when it has one), a cluster manager (its cluster's members; none without a
 *   cluster). The member must be a member (grower, carrier, cooperative, input supplier).
 * - What: the complete new account (mobile money, bank name + number, the bank optional but
 *   both or neither), different from the current one; one pending request per member.
 * - Who decides: a super admin who did NOT ask; a pending request only. A rejection has a
 *   reason. Until approval the old account stays (payments go there).
 */

export type RequestStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

export interface PayoutAccount {
  momoAccountNumber: string | null;
  bankName: string | null;
  bankAccountNumber: string | null;
}

export interface Staff {
  id: string;
  role: RoleCode;
  clusterId: string | null;
}

export interface Member {
  id: string;
  role: RoleCode;
  clusterId: string | null;
}

export const PAYOUT_MESSAGES = {
  forbidden: 'Vous n’avez pas accès à cette ressource',
  noCluster:
    'Aucun cluster ne vous est attribué : un administrateur doit vous en attribuer un avant que vous puissiez gérer les acteurs',
  outOfReach: 'Ce membre n’est pas dans votre périmètre',
  notMember:
    'Seuls les comptes de paiement des producteurs, transporteurs, organisations paysannes et fournisseurs d’intrant se changent par une demande',
  identical: 'Le nouveau compte est identique au compte actuel',
  bankBoth: 'Indiquez la banque et le numéro de compte, ou aucun des deux',
  pending: 'Une demande de changement est déjà en attente pour ce membre',
  superAdminOnly: 'Seul un super administrateur approuve ou rejette une demande',
  ownRequest:
    'Vous ne pouvez pas traiter votre propre demande : un autre super administrateur doit l’approuver ou la rejeter',
  decided: 'Cette demande a déjà été traitée',
  notFound: 'Demande introuvable',
  memberNotFound: 'Membre introuvable',
} as const;

/** The roles that ask (and read a member's history). */
export const REQUESTERS: readonly RoleCode[] = [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.CLUSTER_MANAGER];

const MEMBERS: readonly RoleCode[] = [
  ROLE.GROWER,
  ROLE.CARRIER,
  ROLE.FARMER_ORGANIZATION,
  ROLE.INPUT_PROVIDER,
];

export type Verdict =
  | { allowed: true }
  | {
      allowed: false;
      status: 403 | 409 | 400;
      message: string;
      reason: string;
    };

const allow: Verdict = { allowed: true };
const refuse = (status: 403 | 409 | 400, message: string, reason: string): Verdict => ({
  allowed: false,
  status,
  message,
  reason,
});

/** May `actor` see `member`'s requests, and ask for a change of its account? */
export function mayRequest(actor: Staff, member: Member): Verdict {
  if (!REQUESTERS.includes(actor.role)) {
    return refuse(403, PAYOUT_MESSAGES.forbidden, 'FORBIDDEN');
  }
  if (actor.role === ROLE.CLUSTER_MANAGER && !actor.clusterId) {
    return refuse(403, PAYOUT_MESSAGES.noCluster, 'NO_CLUSTER');
  }
  if (!MEMBERS.includes(member.role)) {
    return refuse(403, PAYOUT_MESSAGES.notMember, 'NOT_MEMBER');
  }
  if (actor.role === ROLE.SUPER_ADMIN) return allow;
  if (actor.role === ROLE.ADMIN && !actor.clusterId) return allow;
  return member.clusterId === actor.clusterId
    ? allow
    : refuse(403, PAYOUT_MESSAGES.outOfReach, 'OUT_OF_REACH');
}

/** The requested account, checked against the current one. */
export function checkProposal(current: PayoutAccount, proposed: PayoutAccount): Verdict {
  if ((proposed.bankName === null) !== (proposed.bankAccountNumber === null)) {
    return refuse(400, PAYOUT_MESSAGES.bankBoth, 'BANK_INCOMPLETE');
  }
  const same =
    proposed.momoAccountNumber === current.momoAccountNumber &&
    proposed.bankName === current.bankName &&
    proposed.bankAccountNumber === current.bankAccountNumber;
  return same ? refuse(400, PAYOUT_MESSAGES.identical, 'IDENTICAL') : allow;
}

/** May `actor` approve or reject this request? */
export function mayDecide(
  actor: Staff,
  request: { status: RequestStatus; requestedBy: string },
): Verdict {
  if (actor.role !== ROLE.SUPER_ADMIN) {
    return refuse(403, PAYOUT_MESSAGES.superAdminOnly, 'FORBIDDEN');
  }
  if (request.requestedBy === actor.id) {
    return refuse(403, PAYOUT_MESSAGES.ownRequest, 'FOUR_EYES');
  }
  if (request.status !== 'PENDING') return refuse(409, PAYOUT_MESSAGES.decided, 'DECIDED');
  return allow;
}

/**
 * The numbers told by SMS: the one payments go to now (mobile money, or the phone when there
 * is none) and the new mobile money number, once each.
 */
export function numbersToTell(
  oldMomo: string | null,
  phone: string | null,
  newMomo: string | null,
): string[] {
  return [...new Set([oldMomo ?? phone, newMomo].filter((n): n is string => !!n))];
}

/** How an account is named in an SMS: masked numbers only. */
export function describeAccount(
  account: PayoutAccount,
  mask: (value: string | null) => string,
): string {
  const parts: string[] = [];
  if (account.momoAccountNumber) parts.push(`mobile money ${mask(account.momoAccountNumber)}`);
  if (account.bankName && account.bankAccountNumber) {
    parts.push(`${account.bankName} ${mask(account.bankAccountNumber)}`);
  }
  return parts.join(', ') || 'aucun';
}
