import { z } from 'zod';
import { storableString } from '@filiere/platform';
import { email, phone, text } from '../../identity/index.js';

/** The spec's French messages (§5) and the supplier's own. */
export const MSG = {
  required: 'Ce champ est obligatoire',
  invalid: 'Entré non valide',
  nip: 'Le NIP est numérique et fait au plus 10 chiffres',
  ifu: 'L’IFU est numérique (au plus 20 chiffres)',
  latitude: 'La latitude est un nombre entre -90 et 90',
  longitude: 'La longitude est un nombre entre -180 et 180',
  deliveryPoints: 'Ajoutez au moins un point de livraison',
  fertilizers: 'Choisissez au moins un intrant',
} as const;

const requiredError = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null || issue.input === ''
    ? MSG.required
    : MSG.invalid;
const emptyAsNull = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? null : value;

/** Numéro d'identification personnel: digits, at most 10, required for a supplier. */
const nip = storableString({ error: requiredError })
  .trim()
  .min(1, MSG.required)
  .regex(/^[0-9]{1,10}$/, MSG.nip);
const ifu = storableString({ error: requiredError })
  .trim()
  .min(1, MSG.required)
  .regex(/^[0-9]{1,20}$/, MSG.ifu);

/** A coordinate: a number (or its text), rounded to 7 decimals; '' or absent = none. */
const coordinate = (min: number, max: number, message: string) =>
  z.preprocess(
    emptyAsNull,
    z.coerce
      .number(message)
      .min(min, message)
      .max(max, message)
      .transform((n) => Math.round(n * 1e7) / 1e7)
      .nullable()
      .optional(),
  );

/** The two banks the forms offer (spec §3: "two banks offered"). */
export const BANKS = ['Ecobank Bénin', 'Orabank Bénin'] as const;

export const deliveryPointInput = z.object({
  label: text(150),
  address: text(300),
  latitude: coordinate(-90, 90, MSG.latitude),
  longitude: coordinate(-180, 180, MSG.longitude),
});

const fertilizerId = z.coerce.number(MSG.invalid).int(MSG.invalid).min(1, MSG.invalid);

export const supplierUserInput = z.object({
  lastname: text(),
  firstname: text(),
  email,
  nip,
  phone,
  rccm: text(40),
  ifu,
});

export const createSupplierBody = z.object({
  /** The supplier's company name; its representative's names when absent. */
  denomination: z.preprocess(emptyAsNull, text(150).nullable().optional()),
  /** Administrators choose the cluster; a cluster manager's is its own. */
  clusterId: z.preprocess(emptyAsNull, z.uuid(MSG.invalid).nullable().optional()),
  user: supplierUserInput,
  /**
   * At least one of each: checked by the service after the role guard (a schema minimum
   * would answer 400 before the guard's 401/403).
   */
  locations: z.array(deliveryPointInput).max(50, MSG.invalid),
  fertilizerIds: z.array(fertilizerId).max(100, MSG.invalid),
  accountInfo: z.object({
    providerName: z.enum(BANKS, { error: MSG.required }),
    accountNumber: text(40),
  }),
  momoInfo: z.object({
    /** Derived from the number (MOOV/MTN); accepted and ignored. */
    providerName: z.string().max(10).optional(),
    momoNumber: phone,
  }),
});
export type CreateSupplierBody = z.infer<typeof createSupplierBody>;

/** Staff edit: never the payout accounts (those change through a payout request). */
export const updateSupplierBody = z.object({
  denomination: text(150).optional(),
  user: supplierUserInput.partial().optional(),
  /** Replaces the delivery points when given. */
  locations: z.array(deliveryPointInput).min(1, MSG.deliveryPoints).max(50, MSG.invalid).optional(),
  /** Replaces the fertilizers when given. */
  fertilizerIds: z.array(fertilizerId).min(1, MSG.fertilizers).max(100, MSG.invalid).optional(),
});
export type UpdateSupplierBody = z.infer<typeof updateSupplierBody>;

export const listQuery = z.object({
  page: z.coerce.number(MSG.invalid).int(MSG.invalid).min(1, MSG.invalid).default(1),
  limit: z.coerce
    .number(MSG.invalid)
    .int(MSG.invalid)
    .min(-1, MSG.invalid)
    .max(1000, MSG.invalid)
    .refine((n) => n !== 0, MSG.invalid)
    .default(10),
  q: storableString().trim().max(100, MSG.invalid).optional(),
  /** `inactive`: the deactivated suppliers (super admin, for their reactivation). */
  status: z.enum(['active', 'inactive'], { error: MSG.invalid }).default('active'),
});
export type ListQuery = z.infer<typeof listQuery>;

export const idParams = z.object({ id: z.uuid(MSG.invalid) });
export const clusterParams = z.object({ clusterId: z.uuid(MSG.invalid) });
export const typeParams = z.object({
  type: z.coerce.number(MSG.invalid).int(MSG.invalid).min(1, MSG.invalid),
});

const fertilizerType = z.object({ id: z.number(), code: z.string(), label: z.string() });
export const fertilizerSchema = z.object({
  id: z.number(),
  label: z.string(),
  type: z.object({ id: z.number(), label: z.string() }),
});
export const fertilizerTypesAnswer = z.array(fertilizerType);
export const fertilizersAnswer = z.array(fertilizerSchema);

export const deliveryPointSchema = z.object({
  id: z.string(),
  label: z.string(),
  address: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});

export const supplierListItem = z.object({
  id: z.string(),
  reference: z.string(),
  denomination: z.string(),
  clusterId: z.string().nullable(),
  isActive: z.boolean(),
  user: z.object({
    id: z.string(),
    lastname: z.string(),
    firstname: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
  }),
});
export type SupplierListItem = z.infer<typeof supplierListItem>;

export const supplierSchema = supplierListItem.extend({
  organizationId: z.string(),
  createdAt: z.string(),
  user: z.object({
    id: z.string(),
    lastname: z.string(),
    firstname: z.string(),
    email: z.string().nullable(),
    nip: z.string().nullable(),
    phone: z.string().nullable(),
    rccm: z.string(),
    ifu: z.string(),
  }),
  locations: z.array(deliveryPointSchema),
  fertilizers: z.array(fertilizerSchema),
  accountInfo: z.object({
    providerName: z.string().nullable(),
    accountNumber: z.string().nullable(),
  }),
  momoInfo: z.object({ providerName: z.string().nullable(), momoNumber: z.string().nullable() }),
});
export type SupplierDto = z.infer<typeof supplierSchema>;

export const listAnswer = z.object({ data: z.array(supplierListItem), count: z.number() });
export const messageAnswer = z.object({ message: z.string() });
export const savedAnswer = z.object({ message: z.string(), data: supplierSchema });

export const auditAnswer = z.object({
  data: z.array(
    z.object({
      position: z.number(),
      type: z.string(),
      recordedAt: z.string(),
      actorId: z.string().nullable(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
  count: z.number(),
});
