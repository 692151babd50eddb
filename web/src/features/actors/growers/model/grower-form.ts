import { z } from 'zod';
import {
  decimalForInput,
  formatDecimal,
  isDecimalText,
  parseDecimal,
} from '../../../../shared/format/number.js';
import { toE164, toLocalPhone } from '../../../../shared/format/phone.js';
import { msg, phoneText, requiredText } from '../../../../shared/validation/rules.js';
import { operatorOf } from '../../../wallet/model/supply-row.js';
import { emptyLocation, locationShape } from '../../../locations/index.js';
import type {
  CreateGrowerInput,
  Grower,
  GrowerUserInput,
  PineappleType,
  Plot,
  PlotInput,
  UpdateGrowerInput,
} from '../api/growers.js';

/**
 * 'Ajouter / Modifier un producteur' and the plot modal: what the forms hold, the spec's §5
 * rules (messages are `validation:` keys, French first), and the payloads they send.
 */

/** The cooperative select's 'Aucune coopérative': a chosen option meaning none. */
export const NO_COOPERATIVE = 'none';

const optionalDigits = (max: number) =>
  z.string().trim().regex(/^\d*$/, msg.invalid).max(max, msg.invalid);

const optionalPhone = () =>
  z
    .string()
    .trim()
    .regex(/^(|\d{8}|01\d{8})$/, msg.phone);

const optionalEmail = () =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || z.email().safeParse(v).success, msg.email);

/** A coordinate: signed, at most 3 digits before the decimal sign and 7 after (spec §9). */
const isCoordinate = (v: string) =>
  /^-?\d{1,3}([.,]\d+)?$/.test(v) && isDecimalText(v, { signed: true, maxDecimals: 7 });

const optionalCoordinate = () =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || isCoordinate(v), msg.invalid);

const optionalDecimal = () =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || isDecimalText(v), msg.invalid);

/** Sown area: required, decimal, not 0. */
const areaSown = () =>
  z
    .string()
    .trim()
    .min(1, msg.required)
    .refine((v) => (parseDecimal(v) ?? 0) > 0, msg.invalid);

/** One plot of the form (the grower form's 'Production' and the plot modal). */
export const plotSchema = z.object({
  productType: z.string(msg.required).min(1, msg.required),
  place: z.object(locationShape(true)),
  location: requiredText(),
  longitude: optionalCoordinate(),
  latitude: optionalCoordinate(),
  plantingDate: z.string().nullable(),
  tifDate: z.string().nullable(),
  areaSown: areaSown(),
  estimatedProduction: optionalDecimal(),
});
export type PlotFormValues = z.infer<typeof plotSchema>;

export const emptyPlot: PlotFormValues = {
  productType: '',
  place: emptyLocation,
  location: '',
  longitude: '',
  latitude: '',
  plantingDate: null,
  tifDate: null,
  areaSown: '',
  estimatedProduction: '',
};

const personal = {
  lastname: requiredText(),
  firstname: requiredText(),
  nip: optionalDigits(10),
  phone: phoneText(),
  email: optionalEmail(),
  contactFullname: z.string().trim(),
  contactPhone: optionalPhone(),
  address: z.object(locationShape(true)),
  cooperative: z.string(msg.required).min(1, msg.required),
};

/** The bank is optional, but its name and account number go together. */
export const BANK_PAIR = 'growers:form.bankPair';

/**
 * Creation: the cluster (chosen by the super admin and the admin, the cluster manager's
 * own), personal information, one or more plots, the payout account.
 */
export const growerCreateSchema = z
  .object({
    clusterId: z.string(msg.required).min(1, msg.required),
    ...personal,
    plots: z.array(plotSchema).min(1),
    momoNumber: phoneText(),
    bankName: z.string().trim(),
    bankAccountNumber: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z -]*$/, msg.invalid)
      .max(40, msg.invalid),
  })
  .superRefine((v, ctx) => {
    if (!!v.bankName !== !!v.bankAccountNumber) {
      ctx.addIssue({
        code: 'custom',
        message: BANK_PAIR,
        path: [v.bankName ? 'bankAccountNumber' : 'bankName'],
      });
    }
  });
export type GrowerFormValues = z.infer<typeof growerCreateSchema>;

/** Editing: the plots are edited on the detail page, the payout account by request only. */
export const growerEditSchema = z.object({
  clusterId: z.string(),
  ...personal,
  plots: z.array(z.unknown()),
  momoNumber: z.string(),
  bankName: z.string(),
  bankAccountNumber: z.string(),
});

export const emptyGrowerForm: GrowerFormValues = {
  clusterId: '',
  lastname: '',
  firstname: '',
  nip: '',
  phone: '',
  email: '',
  contactFullname: '',
  contactPhone: '',
  address: emptyLocation,
  cooperative: '',
  plots: [emptyPlot],
  momoNumber: '',
  bankName: '',
  bankAccountNumber: '',
};

/**
 * The mobile money number follows the phone while the user has not typed one of its own
 * (spec §4: pre-filled from the phone's first 8 characters; 10-digit numbers are kept whole).
 */
export function prefilledMomo(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.startsWith('01') ? digits.slice(0, 10) : digits.slice(0, 8);
}

/** 'MOOV' / 'MTN' from a number typed as 8 or 10 digits; null until it is complete. */
export const operatorOfNumber = operatorOf;

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());
const numberOrNull = (v: string) => (v.trim() === '' ? null : parseDecimal(v));
/** Coordinates travel rounded to 7 decimals (spec §9). */
const coordinate = (v: string) => {
  const value = v.trim() === '' ? null : parseDecimal(v, { signed: true });
  return value === null ? null : Math.round(value * 1e7) / 1e7;
};

export function toPlotInput(v: PlotFormValues): PlotInput {
  return {
    productType: v.productType as PineappleType,
    department: v.place.department,
    borough: v.place.commune,
    district: v.place.arrondissement,
    village: v.place.village,
    location: v.location.trim(),
    longitude: coordinate(v.longitude),
    latitude: coordinate(v.latitude),
    plantingDate: v.plantingDate || null,
    tifDate: v.tifDate || null,
    areaSown: parseDecimal(v.areaSown) ?? 0,
    estimatedProduction: numberOrNull(v.estimatedProduction),
  };
}

const text = (v: number | string | null | undefined) => (v == null ? '' : decimalForInput(v));

export function toPlotForm(plot: Plot): PlotFormValues {
  return {
    productType: plot.productType,
    place: {
      department: plot.department,
      commune: plot.borough,
      arrondissement: plot.district,
      village: plot.village,
    },
    location: plot.location ?? '',
    longitude: text(plot.longitude),
    latitude: text(plot.latitude),
    plantingDate: plot.plantingDate ? plot.plantingDate.slice(0, 10) : null,
    tifDate: plot.tifDate ? plot.tifDate.slice(0, 10) : null,
    areaSown: text(plot.areaSown),
    estimatedProduction: text(plot.estimatedProduction),
  };
}

function toUserInput(v: GrowerFormValues): GrowerUserInput {
  return {
    lastname: v.lastname.trim(),
    firstname: v.firstname.trim(),
    nip: orNull(v.nip),
    phone: toE164(v.phone),
    email: orNull(v.email),
    contactFullname: orNull(v.contactFullname),
    contactPhone: v.contactPhone.trim() ? toE164(v.contactPhone) : null,
    department: v.address.department,
    borough: v.address.commune,
    district: v.address.arrondissement,
    village: v.address.village,
  };
}

const cooperativeId = (v: GrowerFormValues) =>
  v.cooperative === NO_COOPERATIVE ? null : v.cooperative;

export function toCreateInput(v: GrowerFormValues): CreateGrowerInput {
  return {
    farmerOrganizationId: cooperativeId(v),
    user: toUserInput(v),
    products: v.plots.map(toPlotInput),
    momoInfo: { momoNumber: toE164(v.momoNumber) },
    accountInfo: { providerName: orNull(v.bankName), accountNumber: orNull(v.bankAccountNumber) },
  };
}

export function toUpdateInput(v: GrowerFormValues): UpdateGrowerInput {
  return { farmerOrganizationId: cooperativeId(v), user: toUserInput(v) };
}

/** The edit form starts from the grower as the API answers it. */
export function toGrowerForm(grower: Grower): GrowerFormValues {
  const u = grower.user;
  return {
    clusterId: grower.clusterId,
    lastname: u.lastname ?? '',
    firstname: u.firstname ?? '',
    nip: u.nip ?? '',
    phone: toLocalPhone(u.phone),
    email: u.email ?? '',
    contactFullname: u.contactFullname ?? '',
    contactPhone: toLocalPhone(u.contactPhone),
    address: {
      department: u.department ?? '',
      commune: u.borough ?? '',
      arrondissement: u.district ?? '',
      village: u.village ?? '',
    },
    cooperative: grower.farmerOrganizationId ?? NO_COOPERATIVE,
    plots: [],
    momoNumber: toLocalPhone(grower.momoInfo?.momoNumber),
    bankName: grower.accountInfo?.providerName ?? '',
    bankAccountNumber: grower.accountInfo?.accountNumber ?? '',
  };
}

/** 'Superficie emblavée (ha)': the list's sum, else the plots' sum, shown with up to 2 decimals. */
export function totalArea(grower: Partial<Pick<Grower, 'areaSown' | 'products'>>): number {
  if (grower.areaSown != null) return Number(grower.areaSown);
  return (grower.products ?? []).reduce((sum, p) => sum + Number(p.areaSown || 0), 0);
}

export function formatArea(ha: number, language = 'fr'): string {
  return formatDecimal(ha, 2, language);
}

/** A banned (deactivated) grower. */
export const isBanned = (grower: Partial<Pick<Grower, 'deactivatedAt' | 'isActive'>>): boolean =>
  grower.isActive === false || Boolean(grower.deactivatedAt);
