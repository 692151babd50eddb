import { z } from 'zod';
import type { ApiError } from '../../../../shared/api/api-error.js';
import { toE164, toLocalPhone } from '../../../../shared/format/phone.js';
import { emailText, msg, phoneText, requiredText } from '../../../../shared/validation/rules.js';
import type {
  Cooperative,
  CooperativeUserInput,
  CreateCooperativeInput,
  UpdateCooperativeInput,
} from '../api/cooperatives.js';

/**
 * 'Ajouter / Modifier une coopérative': what the form holds, the spec's §5 rules
 * (denomination and e-mail required, IFU exactly 13 digits, bank required, mobile money 8
 * digits), and the payloads it sends. Messages are `validation:` keys or this area's own.
 */
export const IFU_MESSAGE = 'cooperatives:form.ifuRule';
export const NIP_MESSAGE = 'cooperatives:form.nipRule';

const personShape = {
  label: requiredText(),
  lastname: requiredText(),
  firstname: requiredText(),
  nip: z
    .string()
    .trim()
    .regex(/^\d{0,10}$/, NIP_MESSAGE),
  phone: phoneText(),
  email: emailText(),
  rccm: z.string().trim().max(40, msg.invalid),
  ifu: z
    .string()
    .trim()
    .min(1, msg.required)
    .regex(/^\d{13}$/, IFU_MESSAGE),
};

export const cooperativeEditSchema = z.object(personShape);

export const cooperativeCreateSchema = z.object({
  ...personShape,
  clusterId: z.string().min(1, msg.required),
  bankName: z.string().min(1, msg.required),
  bankAccountNumber: requiredText().max(40, msg.invalid),
  momoNumber: phoneText(),
});

export type CooperativeFormValues = z.infer<typeof cooperativeCreateSchema>;

export const emptyCooperativeForm: CooperativeFormValues = {
  label: '',
  lastname: '',
  firstname: '',
  nip: '',
  phone: '',
  email: '',
  rccm: '',
  ifu: '',
  clusterId: '',
  bankName: '',
  bankAccountNumber: '',
  momoNumber: '',
};

/** The payout number defaults to the phone (spec §4). */
export const prefilledMomo = (phone: string) => phone.trim();

export function toCooperativeForm(c: Cooperative): CooperativeFormValues {
  return {
    label: c.label,
    lastname: c.user.lastname,
    firstname: c.user.firstname,
    nip: c.user.nip ?? '',
    phone: toLocalPhone(c.user.phone),
    email: c.user.email ?? '',
    rccm: c.user.rccm ?? '',
    ifu: c.user.ifu,
    clusterId: c.clusterId,
    bankName: c.accountInfo.providerName ?? '',
    bankAccountNumber: c.accountInfo.accountNumber ?? '',
    momoNumber: toLocalPhone(c.momoInfo.momoNumber),
  };
}

function userInput(v: CooperativeFormValues): CooperativeUserInput {
  return {
    lastname: v.lastname.trim(),
    firstname: v.firstname.trim(),
    nip: v.nip.trim(),
    phone: toE164(v.phone),
    email: v.email.trim(),
    rccm: v.rccm.trim(),
    ifu: v.ifu.trim(),
  };
}

export function toCreateInput(v: CooperativeFormValues): CreateCooperativeInput {
  return {
    label: v.label.trim(),
    user: userInput(v),
    accountInfo: { providerName: v.bankName, accountNumber: v.bankAccountNumber.trim() },
    momoInfo: { momoNumber: toE164(v.momoNumber) },
  };
}

/** An edit leaves the representative's phone and e-mail (its own, for its sign-in) alone. */
export function toUpdateInput(v: CooperativeFormValues): UpdateCooperativeInput {
  const { phone: _phone, email: _email, ...user } = userInput(v);
  return { label: v.label.trim(), user };
}

const FIELD_OF: Record<string, keyof CooperativeFormValues> = {
  label: 'label',
  'user.lastname': 'lastname',
  'user.firstname': 'firstname',
  'user.nip': 'nip',
  'user.phone': 'phone',
  'user.email': 'email',
  'user.rccm': 'rccm',
  'user.ifu': 'ifu',
  'accountInfo.providerName': 'bankName',
  'accountInfo.accountNumber': 'bankAccountNumber',
  'momoInfo.momoNumber': 'momoNumber',
};

/** The form fields a server answer points at: a 400's `fields`, a 409 on the phone or e-mail. */
export function serverFieldErrors(error: ApiError): [keyof CooperativeFormValues, string][] {
  const out: [keyof CooperativeFormValues, string][] = [];
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
