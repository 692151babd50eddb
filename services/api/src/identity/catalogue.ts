import { z } from 'zod';
import { defineEvent, type EventDefinition, type StreamType } from '@filiere/event-store';
import { ROLE_CODES } from '../kernel/roles.js';

/**
 * Identity's audit events, one stream per user (`user-<id>`): who changed what and when on
 * an account (e-mail, payout accounts, role, cluster, active state, password, deletion),
 * with the old and new values except secrets (no password or hash ever). The `users` table
 * stays the state the API reads; these events are its audit trail, read back by
 * GET /api/users/{id}/audit.
 */
const id = z.guid();
const base = { userId: id, actorId: id };

export const PAYOUT_ACCOUNTS = ['MOBILE_MONEY', 'BANK', 'PHONE'] as const;
export type PayoutAccount = (typeof PAYOUT_ACCOUNTS)[number];

const schemas = {
  /** A new account: by a registrar (actorId) or self-registered (actorId = userId). */
  UserRegistered: z.object({
    ...base,
    email: z.string(),
    role: z.enum(ROLE_CODES),
    clusterId: id.nullable(),
    organizationId: id.nullable(),
    phone: z.string().nullable(),
    momoAccountNumber: z.string().nullable(),
    bankAccountNumber: z.string().nullable(),
    isActive: z.boolean(),
    selfRegistered: z.boolean(),
  }),
  UserEmailChanged: z.object({ ...base, from: z.string(), to: z.string() }),
  UserPayoutAccountChanged: z.object({
    ...base,
    account: z.enum(PAYOUT_ACCOUNTS),
    from: z.string().nullable(),
    to: z.string().nullable(),
  }),
  UserRoleChanged: z.object({ ...base, from: z.enum(ROLE_CODES), to: z.enum(ROLE_CODES) }),
  UserClusterChanged: z.object({ ...base, from: id.nullable(), to: id.nullable() }),
  UserActivated: z.object(base),
  UserDeactivated: z.object(base),
  UserDeleted: z.object(base),
  /** The password was set or changed (never the password itself): PROFILE, RESET or INVITATION link. */
  UserPasswordChanged: z.object({ ...base, via: z.enum(['PROFILE', 'RESET', 'INVITATION']) }),
};

type Schemas = typeof schemas;
export type IdentityEventType = keyof Schemas;
export type IdentityEvent = {
  [T in IdentityEventType]: { type: T; data: z.infer<Schemas[T]> };
}[IdentityEventType];

export const IDENTITY_EVENT_TYPES = Object.keys(schemas) as IdentityEventType[];

/** Builds an event with its type checked against the union. */
export function identityEvent<T extends IdentityEventType>(
  type: T,
  data: z.infer<Schemas[T]>,
): Extract<IdentityEvent, { type: T }> {
  return { type, data } as Extract<IdentityEvent, { type: T }>;
}

export const userStreamId = (userId: string): string => `user-${userId}`;

/**
 * The `user-…` streams. Decisions need no folded state (the rules read the users table under
 * a row lock), so the state only counts events.
 */
export const userStream: StreamType<{ events: number }> = {
  category: 'user',
  initialState: () => ({ events: 0 }),
  evolve: (state) => ({ events: state.events + 1 }),
};

/** Identity's event types, for the product's catalogue (built from the modules). */
export const identityEvents: EventDefinition<string, any>[] = Object.entries(schemas).map(
  ([type, schema]) => defineEvent({ type, version: 1, schema }),
);

/** Identity's stream types (`user-…`). */
export const identityStreams: StreamType[] = [userStream as StreamType];
