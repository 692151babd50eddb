import type { Kysely } from 'kysely';
import { narrowDb, type LoopRunner } from '@filiere/platform';
import type { PushMessage, PushPublisher } from '@filiere/projections';
import { identityUsers, type IdentityTables } from '../identity/index.js';
import { ROLE } from '../kernel/roles.js';

/** Messaging's push: messages were written, sent, delivered or failed (no data). */
export const MESSAGING_PUSHES = ['sms.changed'] as const;
export type MessagingPushType = (typeof MESSAGING_PUSHES)[number];

export const messagingPush = (msg: PushMessage & { type: MessagingPushType }): PushMessage => msg;

type Readers = Pick<IdentityTables, 'users' | 'roles'>;

/** Who reads the SMS screen: the super admin and the admins, active. */
async function smsReaders(db: Kysely<Readers>) {
  const rows = await db
    .selectFrom(identityUsers().as('u'))
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select('u.id')
    .where('r.code', 'in', [ROLE.SUPER_ADMIN, ROLE.ADMIN])
    .where('u.deleted_at', 'is', null)
    .where('u.is_active', '=', true)
    .execute();
  return rows.map((r) => r.id);
}

/** Tells the SMS screen's readers that the outbox changed. */
export async function pushSmsChanged<DB extends Readers>(
  db: Kysely<DB>,
  publish: PushPublisher,
): Promise<void> {
  const userIds = await smsReaders(narrowDb<Readers>()(db));
  if (userIds.length) await publish([messagingPush({ type: 'sms.changed', userIds })]);
}

/**
 * A loop runner whose runs that changed the outbox (a count above zero) push `sms.changed`,
 * so the admin's list refetches. A push that fails is logged by the loop and changes nothing
 * of what was written.
 */
export function pushingRuns<DB extends Readers>(
  runner: LoopRunner,
  db: Kysely<DB>,
  publish: PushPublisher,
): LoopRunner {
  return {
    runDue: async () => {
      const done = await runner.runDue();
      if (done > 0) await pushSmsChanged(db, publish);
      return done;
    },
  };
}
