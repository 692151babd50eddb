import { z } from 'zod';
import { storableString } from '@filiere/platform';
import { email, phone, text } from '../../identity/index.js';
import { accountInfo, emptyAsNull, MSG, momoInfo, nip } from '../cooperatives/schemas.js';
import { CAR_TYPES } from './domain/vehicles.js';

export { idParams, listOf, listQuery, type ListQuery } from '../cooperatives/schemas.js';

const optionalEmail = z.preprocess(emptyAsNull, email.nullable().optional());
const code = text(20);
const kg = z.preprocess(
  emptyAsNull,
  z.coerce
    .number(MSG.invalid)
    .int(MSG.invalid)
    .min(0, MSG.invalid)
    .max(100_000, 'Le champ doit avoir une valeur inférieur ou égale à 100000')
    .nullable()
    .optional(),
);

export const carInput = z.object({
  carType: z.enum(CAR_TYPES, { error: MSG.required }),
  registration: storableString({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .max(20, MSG.invalid),
  emptyWeight: kg,
  /** Kg; the type's default when absent. */
  capacity: kg.refine((v) => v === null || v === undefined || v > 0, MSG.invalid),
});

const carrierUser = z.object({
  lastname: text(),
  firstname: text(),
  nip,
  phone,
  email: optionalEmail,
  department: code,
  /** The commune (spec: borough). */
  borough: code,
  /** The arrondissement (spec: district). */
  district: code,
  village: code,
});

export const createCarrierBody = z.object({
  /** The cluster (administrators); a cluster manager's own when absent. */
  clusterId: z.preprocess(emptyAsNull, z.uuid(MSG.invalid).nullable().optional()),
  /** A cooperative the carrier works with (optional). */
  organizationId: z.preprocess(emptyAsNull, z.uuid(MSG.invalid).nullable().optional()),
  user: carrierUser,
  carrier: z.object({ address: text(200) }),
  cars: z.array(carInput).max(50, MSG.invalid).default([]),
  accountInfo,
  momoInfo,
});
export type CreateCarrierBody = z.infer<typeof createCarrierBody>;

/** Staff edit: the person, the address, the vehicles (the whole list); never the payout accounts. */
export const updateCarrierBody = z.object({
  user: carrierUser.partial().optional(),
  carrier: z.object({ address: text(200) }).optional(),
  cars: z.array(carInput).max(50, MSG.invalid).optional(),
});
export type UpdateCarrierBody = z.infer<typeof updateCarrierBody>;

export const carSchema = z.object({
  id: z.string(),
  carType: z.enum(CAR_TYPES),
  registration: z.string(),
  emptyWeight: z.number().nullable(),
  capacity: z.number(),
});

export const carrierSchema = z.object({
  id: z.string(),
  reference: z.string(),
  userId: z.string(),
  clusterId: z.string(),
  organizationId: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  user: z.object({
    id: z.string(),
    lastname: z.string(),
    firstname: z.string(),
    username: z.string(),
    nip: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    department: z.string(),
    borough: z.string(),
    district: z.string(),
    village: z.string(),
  }),
  carrier: z.object({ address: z.string() }),
  cars: z.array(carSchema),
  accountInfo: z.object({
    providerName: z.string().nullable(),
    accountNumber: z.string().nullable(),
  }),
  momoInfo: z.object({ providerName: z.string().nullable(), momoNumber: z.string().nullable() }),
});
export type CarrierDto = z.infer<typeof carrierSchema>;
