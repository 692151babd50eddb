import { z } from 'zod';
import type { EventStore } from '@filiere/event-store';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import { isPlatformAuditor, type SignedInUser } from '../kernel/actor.js';
import { ROLE } from '../kernel/roles.js';
import { RULE_MESSAGES } from './field-rules.js';
import { IDENTITY_EVENT_TYPES, userStreamId } from './catalogue.js';
import type { IdentityRepository } from './repository.js';

/** One audit entry: what happened (type and values), who did it, when. */
export const auditEntrySchema = z.object({
  position: z.number(),
  type: z.enum(IDENTITY_EVENT_TYPES as [string, ...string[]]),
  recordedAt: z.string(),
  actor: z
    .object({
      id: z.string(),
      firstname: z.string(),
      lastname: z.string(),
      email: z.string().nullable(),
    })
    .nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * Who reads any account's audit trail: the administrators and the platform's auditor
 * (ROLE_ACCOUNTING outside any organisation); auditing is global for them (docs/decisions.md).
 */
export function readsEveryAudit(reader: Pick<SignedInUser, 'role_code' | 'organization_id'>) {
  return (
    reader.role_code === ROLE.SUPER_ADMIN ||
    reader.role_code === ROLE.ADMIN ||
    isPlatformAuditor(reader)
  );
}

/**
 * The audit trail of one account, newest first, read from the event store by stream
 * (`user-<id>`), with the name of whoever made each change (deleted users included).
 * 404 for an id that never was a user.
 */
export async function readUserAudit(
  store: EventStore,
  repo: IdentityRepository,
  reader: Pick<SignedInUser, 'id' | 'role_code' | 'organization_id'>,
  userId: string,
  page: { page: number; limit: number },
): Promise<{ data: AuditEntry[]; count: number }> {
  if (!readsEveryAudit(reader)) {
    // An organisation's accountant: its own trail and its organisation's members' (as its
    // wallet reach), 403 before 404 so that it learns nothing of other ids.
    const target = userId === reader.id ? undefined : await repo.organizationOfAny(userId);
    if (
      userId !== reader.id &&
      (!target ||
        reader.organization_id === null ||
        target.organizationId !== reader.organization_id)
    ) {
      throw new ForbiddenError(RULE_MESSAGES.reach);
    }
  }
  const events = await store.readStream(userStreamId(userId));
  if (!events.length && !(await repo.everExisted(userId))) {
    throw new NotFoundError('Utilisateur introuvable');
  }
  const newestFirst = [...events].reverse();
  const slice =
    page.limit === -1
      ? newestFirst
      : newestFirst.slice((page.page - 1) * page.limit, page.page * page.limit);
  const actorIds = [
    ...new Set(slice.map((e) => (e.data as { actorId?: string }).actorId).filter(Boolean)),
  ] as string[];
  const names = await repo.namesOf(actorIds);
  return {
    data: slice.map((e) => {
      const data = e.data as Record<string, unknown> & { actorId?: string };
      return {
        position: e.position,
        type: e.type,
        recordedAt: e.recordedAt.toISOString(),
        actor: (data.actorId && names.get(data.actorId)) || null,
        data,
      };
    }),
    count: events.length,
  };
}
