import { z } from 'zod';

/**
 * The events of a grower's request (`seasonrequest-<id>`, numeric id from the sequence
 * `season_request_ids`; reference `DEM-000123`). A request is filed (CREATED), then accepted
 * (CONFIRMED, irreversible) or rejected with a reason (REJECTED). An accepted INPUT request
 * carries its delivery code (`AGW_` + 6 digits) and waits for the input provider; the
 * deliveries area appends `InputDelivered` to the same stream when the provider delivers.
 *
 * Types: INPUT (a fertilizer of the season's lines, kg; amount = kg × aᵢ), PINEAPLE (an
 * advance on pineapple: the amount asked and the kg of pineapple to deliver), SOCIAL (a social
 * financing asked of an SFD).
 */
const userId = z.guid();
const requestId = z.number().int().positive();
const money = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const instant = z.iso.datetime();

export const REQUEST_TYPES = ['INPUT', 'PINEAPLE', 'SOCIAL'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const REQUEST_STATUSES = ['CREATED', 'CONFIRMED', 'REJECTED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** 'AGW_' and six digits: the code the grower gives the input provider. */
export const DELIVERY_CODE = /^AGW_\d{6}$/;

export const requestEventSchemas = {
  GrowerRequestFiled: z.object({
    requestId,
    reference: z.string().regex(/^DEM-\d{6,}$/),
    type: z.enum(REQUEST_TYPES),
    seasonId: z.number().int().positive(),
    /** The industrial's season link (INPUT, PINEAPLE); null for SOCIAL. */
    linkId: z.number().int().positive().nullable(),
    industrialUserId: userId.nullable(),
    /** The SFD asked (SOCIAL only). */
    sfdUserId: userId.nullable(),
    growerId: userId,
    growerUserId: userId,
    /** INPUT: the fertilizer (a line of the season). */
    fertilizerId: z.number().int().positive().nullable(),
    /** INPUT: kg of fertilizer; PINEAPLE: kg of pineapple to deliver; SOCIAL: null. */
    quantityKg: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable(),
    /** INPUT: kg × aᵢ; PINEAPLE, SOCIAL: the amount asked (F CFA). */
    amount: money,
    filedBy: userId,
    filedAt: instant,
  }),
  GrowerRequestAccepted: z.object({
    requestId,
    acceptedBy: userId,
    acceptedAt: instant,
    /** INPUT: the delivery code. */
    code: z.string().regex(DELIVERY_CODE).nullable(),
    /** PINEAPLE, SOCIAL: the debt opened in the same append. */
    debtId: z.string().min(1).nullable(),
    /** PINEAPLE, SOCIAL: the wallet transfer's reference. */
    transferId: z.string().min(1).nullable(),
  }),
  GrowerRequestRejected: z.object({
    requestId,
    reason: z.string().min(1).max(1000),
    rejectedBy: userId,
    rejectedAt: instant,
  }),
  /** Written by the deliveries area (make-delivery), folded here. */
  InputDelivered: z.object({
    requestId,
    assignmentId: z.number().int().positive(),
    providerUserId: userId,
    amount: money,
    debtId: z.string().min(1),
    deliveredBy: userId,
    deliveredAt: instant,
  }),
} as const;

type Schemas = typeof requestEventSchemas;
export type RequestEventType = keyof Schemas;
export type RequestEvent = {
  [K in RequestEventType]: { type: K; data: z.infer<Schemas[K]> };
}[RequestEventType];
export type RequestEventOf<K extends RequestEventType> = Extract<RequestEvent, { type: K }>;

export function requestEvent<K extends RequestEventType>(
  type: K,
  data: z.infer<Schemas[K]>,
): RequestEventOf<K> {
  return { type, data } as RequestEventOf<K>;
}

export const REQUEST_EVENT_TYPES = Object.keys(requestEventSchemas) as RequestEventType[];

/** `DEM-000123`: the request's reference from its numeric id. */
export const requestReference = (requestId: number): string =>
  `DEM-${String(requestId).padStart(6, '0')}`;
