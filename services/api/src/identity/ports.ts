import type { Kysely } from 'kysely';
import type { EventStoreTables } from '@filiere/event-store';
import type { IdentityTables } from './tables.js';

/**
 * Asked before a user is deleted: resolves when nothing of theirs is left elsewhere, throws
 * (a BusinessRuleError, 422) while something is. Identity sits below the contexts that hold
 * what a user owns (the wallet), so it declares what it asks of them here and the module
 * list (modules.ts) plugs their answers in: identity imports none of them.
 */
export type UserDeletionCheck = <DB extends IdentityTables & EventStoreTables>(
  db: Kysely<DB>,
  userId: string,
) => Promise<void>;

/** What identity needs from the contexts above it, given by modules.ts. */
export interface IdentityPorts {
  /** The wallet's: refuses while the user's balance is not zero or a withdrawal is in flight. */
  userDeletionCheck: UserDeletionCheck;
}
