import { z } from 'zod';
import type { ApiError } from '../../../../shared/api/api-error.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { emailText, msg, phoneText, requiredText } from '../../../../shared/validation/rules.js';
import type { Supplier, SupplierInput } from '../api/suppliers.js';

/**
 * 'Ajouter / Modifier un fournisseur d'intrant' (spec §5 "Supplier form"): last name, first
 * names, e-mail, NIP (numeric), RCCM required; phone 8 digits; IFU required numeric; bank
 * required; momo 8 digits; each delivery point's label and address required, coordinates
 * numeric; each fertilizer line's type and fertilizer required.
 */
const digits = (max: number) =>
  z
    .string()
    .trim()
    .min(1, msg.required)
    .regex(new RegExp(`^([0-9]{1,${max}})?$`), msg.invalid);

/** '' or a decimal number (dot or comma). */
const coordinate = z
  .string()
  .trim()
  .refine((v) => v === '' || /^-?\d+([.,]\d+)?$/.test(v), msg.invalid);

export const deliveryPointSchema = z.object({
  label: requiredText(),
  address: requiredText(),
  latitude: coordinate,
  longitude: coordinate,
});

export const fertilizerLineSchema = z.object({
  typeId: z.string().min(1, msg.required),
  fertilizerId: z.string().min(1, msg.required),
});

const base = {
  denomination: z.string().trim(),
  clusterId: z.string(),
  lastname: requiredText(),
  firstname: requiredText(),
  email: emailText(),
  nip: digits(10),
  phone: phoneText(),
  rccm: requiredText(),
  ifu: digits(20),
  locations: z.array(deliveryPointSchema).min(1, msg.required),
  fertilizers: z.array(fertilizerLineSchema).min(1, msg.required),
};

export const supplierCreateSchema = z.object({
  ...base,
  bankName: z.string().min(1, msg.required),
  accountNumber: requiredText(),
  momoNumber: phoneText(),
});

/** Editing: the payout accounts are read-only (a change is a request). */
export const supplierEditSchema = z.object({
  ...base,
  bankName: z.string(),
  accountNumber: z.string(),
  momoNumber: z.string(),
});

export type SupplierFormValues = z.infer<typeof supplierCreateSchema>;

export const emptyPoint = { label: '', address: '', latitude: '', longitude: '' };
export const emptyFertilizerLine = { typeId: '', fertilizerId: '' };

export const emptySupplierForm: SupplierFormValues = {
  denomination: '',
  clusterId: '',
  lastname: '',
  firstname: '',
  email: '',
  nip: '',
  phone: '',
  rccm: '',
  ifu: '',
  locations: [emptyPoint],
  fertilizers: [emptyFertilizerLine],
  bankName: '',
  accountNumber: '',
  momoNumber: '',
};

export function toSupplierForm(s: Supplier): SupplierFormValues {
  return {
    denomination: s.denomination,
    clusterId: s.clusterId ?? '',
    lastname: s.user.lastname,
    firstname: s.user.firstname,
    email: s.user.email ?? '',
    nip: s.user.nip ?? '',
    phone: toLocalPhone(s.user.phone),
    rccm: s.user.rccm,
    ifu: s.user.ifu,
    locations: s.locations.map((p) => ({
      label: p.label,
      address: p.address,
      latitude: p.latitude === null ? '' : String(p.latitude),
      longitude: p.longitude === null ? '' : String(p.longitude),
    })),
    fertilizers: s.fertilizers.map((f) => ({
      typeId: String(f.type.id),
      fertilizerId: String(f.id),
    })),
    bankName: s.accountInfo.providerName ?? '',
    accountNumber: s.accountInfo.accountNumber ?? '',
    momoNumber: toLocalPhone(s.momoInfo.momoNumber),
  };
}

const toNumber = (v: string) => (v.trim() === '' ? null : Number(v.replace(',', '.')));

export function toSupplierInput(v: SupplierFormValues, withPayout: boolean): SupplierInput {
  return {
    denomination: v.denomination.trim() || null,
    ...(v.clusterId ? { clusterId: v.clusterId } : {}),
    user: {
      lastname: v.lastname.trim(),
      firstname: v.firstname.trim(),
      email: v.email.trim(),
      nip: v.nip.trim(),
      phone: v.phone.trim(),
      rccm: v.rccm.trim(),
      ifu: v.ifu.trim(),
    },
    locations: v.locations.map((p) => ({
      label: p.label.trim(),
      address: p.address.trim(),
      latitude: toNumber(p.latitude),
      longitude: toNumber(p.longitude),
    })),
    fertilizerIds: [...new Set(v.fertilizers.map((f) => Number(f.fertilizerId)))],
    ...(withPayout
      ? {
          accountInfo: { providerName: v.bankName, accountNumber: v.accountNumber.trim() },
          momoInfo: { momoNumber: v.momoNumber.trim() },
        }
      : {}),
  };
}

/** The mobile money number follows the phone's first 8 digits' form (spec §4). */
export const prefilledMomo = (phone: string) => phone.replace(/\D/g, '').slice(0, 10);

const FIELD_OF: Record<string, keyof SupplierFormValues> = {
  'user.lastname': 'lastname',
  'user.firstname': 'firstname',
  'user.email': 'email',
  'user.nip': 'nip',
  'user.phone': 'phone',
  'user.rccm': 'rccm',
  'user.ifu': 'ifu',
  'accountInfo.providerName': 'bankName',
  'accountInfo.accountNumber': 'accountNumber',
  'momoInfo.momoNumber': 'momoNumber',
  denomination: 'denomination',
  clusterId: 'clusterId',
};

/** The server's field messages (and 409s) on the form's fields. */
export function serverFieldErrors(error: ApiError): [keyof SupplierFormValues, string][] {
  const out: [keyof SupplierFormValues, string][] = [];
  for (const [path, message] of Object.entries(error.fields ?? {})) {
    const field = FIELD_OF[path];
    if (field) out.push([field, message]);
  }
  if (error.status === 409) {
    if (/PHONE/.test(error.reason ?? '')) out.push(['phone', error.message]);
    else if (/EMAIL|USER_ALREADY/.test(error.reason ?? '')) out.push(['email', error.message]);
  }
  return out;
}
