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

export const PAYOUT_ACCOUNTS = ['MOBILE_MONEY', 'BANK', 'BANK_NAME', 'PHONE'] as const;
export type PayoutAccount = (typeof PAYOUT_ACCOUNTS)[number];

const schemas = {
  /** A new account: by a registrar (actorId) or self-registered (actorId = userId). */
  UserRegistered: z.object({
    ...base,
    /** Null for a member (grower, carrier) registered without one. */
    email: z.string().nullable(),
    role: z.enum(ROLE_CODES),
    clusterId: id.nullable(),
    organizationId: id.nullable(),
    phone: z.string().nullable(),
    momoAccountNumber: z.string().nullable(),
    bankAccountNumber: z.string().nullable(),
    isActive: z.boolean(),
    selfRegistered: z.boolean(),
    /** Members (members.ts): their NIP and bank, when given. */
    nip: z.string().nullable().optional(),
    bankName: z.string().nullable().optional(),
  }),
  /** A staff edit of a member's identity (members.ts `update`; the e-mail has its own event). */
  UserDetailsChanged: z.object({
    ...base,
    field: z.enum(['firstname', 'lastname', 'nip', 'phone']),
    from: z.string().nullable(),
    to: z.string().nullable(),
  }),
  UserEmailChanged: z.object({ ...base, from: z.string().nullable(), to: z.string().nullable() }),
  UserPayoutAccountChanged: z.object({
    ...base,
    account: z.enum(PAYOUT_ACCOUNTS),
    from: z.string().nullable(),
    to: z.string().nullable(),
    /** A member's change, applied once a super admin approved the request (four eyes). */
    requestId: id.optional(),
    requestedBy: id.optional(),
    approvedBy: id.optional(),
  }),
  /** Staff asked to change a member's payout account (actors/payout/); nothing changes yet. */
  UserPayoutChangeRequested: z.object({
    ...base,
    requestId: id,
    momoAccountNumber: z.string().nullable(),
    bankName: z.string().nullable(),
    bankAccountNumber: z.string().nullable(),
  }),
  /** A super admin rejected the request (with its reason); the account stays as it was. */
  UserPayoutChangeRejected: z.object({ ...base, requestId: id, reason: z.string() }),
  /** A new PIN was drawn and sent by SMS (never the PIN or its hash). */
  UserPinReset: z.object(base),
  UserRoleChanged: z.object({ ...base, from: z.enum(ROLE_CODES), to: z.enum(ROLE_CODES) }),
  UserClusterChanged: z.object({ ...base, from: id.nullable(), to: id.nullable() }),
  /** `reason`: a member's reinstatement or ban (members.ts `setActive`). */
  UserActivated: z.object({ ...base, reason: z.string().optional() }),
  UserDeactivated: z.object({ ...base, reason: z.string().optional() }),
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
