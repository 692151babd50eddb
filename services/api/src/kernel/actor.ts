import type { ReadGuard } from '@filiere/event-store';
import { ROLE, type OrganizationType, type RoleCode } from './roles.js';

/**
 * The signed-in user as the auth guard loads it on every request (http/auth.ts), from the
 * loader identity's module provides: its current role and state, never the token's claims.
 * Routes read it as `request.actor`.
 */
export interface SignedInUser {
  id: string;
  firstname: string;
  lastname: string;
  /** Growers and carriers (members registered by staff) may have none. */
  email: string | null;
  username: string;
  phone: string | null;
  /** National identification number (numeric, ≤ 10 characters), when known. */
  nip: string | null;
  /**
   * Whether the user set a password (a member registered by staff may have none). The hash
   * itself is never loaded with the user: only `IdentityRepository.passwordHashOf` reads it,
   * where a password is checked, so no request, cache or log line carries it.
   */
  has_password: boolean;
  role_id: number;
  role_code: RoleCode;
  role_name: string;
  organization_id: string | null;
  denomination: string | null;
  organization_type: OrganizationType | null;
  cluster_id: string | null;
  wallet_id: string;
  momo_account_number: string | null;
  bank_account_number: string | null;
  is_active: boolean;
  self_registered: boolean;
  /** Access tokens carry it (claim `tv`); bumping it revokes every token issued before. */
  token_version: number;
  created_at: Date;
}

/**
 * The platform's auditor: a ROLE_ACCOUNTING account outside any organisation. It
 * reads every wallet's history and every audit trail; an organisation's accountant (staff an
 * aggregator or an SFD names, with an `organization_id`) reads its organisation's only.
 */
export function isPlatformAuditor(user: {
  role_code: string;
  organization_id: string | null;
}): boolean {
  return user.role_code === ROLE.ACCOUNTING && user.organization_id === null;
}

/**
 * A user read with its read guard (`user:<id>` and the version read): a command decided on it
 * names the guard, and the append refuses the command (StaleReadError) if the row changed since.
 */
export interface GuardedUser {
  /** The row as read (a deleted user's too: see `deleted`). */
  user: SignedInUser;
  deleted: boolean;
  guard: ReadGuard;
}

/**
 * Users by user id or wallet id from a per-process cache (identity's `userDirectory`): the hot
 * paths' way to skip a round trip per request. What it answers may be stale, so only a command
 * that names the users' guards may rely on it, and a refusal it would cause is checked fresh.
 */
export interface UserDirectory {
  /** The user (deleted ones too), from the cache unless `fresh` or unknown: then read now. */
  find(idOrWalletId: string, fresh?: boolean): Promise<GuardedUser | undefined>;
}
