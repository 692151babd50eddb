import { z } from 'zod';
import type { ApiError } from '../../../../shared/api/api-error.js';
import { toE164, toLocalPhone } from '../../../../shared/format/phone.js';
import { msg, phoneText, requiredText } from '../../../../shared/validation/rules.js';
import { emptyLocation, locationShape } from '../../../locations/index.js';
import {
  CAR_TYPES,
  type Carrier,
  type CarrierUserInput,
  type CarType,
  type CreateCarrierInput,
  type UpdateCarrierInput,
} from '../api/carriers.js';

/**
 * 'Ajouter / Modifier un transporteur': what the form holds, the spec's §5 rules (names
 * required; NIP numeric ≤ 10; phone 8 digits; e-mail valid; location and address required;
 * bank required; mobile money 8 digits; a vehicle's type and registration required), and the
 * payloads it sends.
 */
export const NIP_MESSAGE = 'carriers:form.nipRule';

const optionalEmail = () =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || z.email().safeParse(v).success, msg.email);

const optionalKg = () =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{1,6}$/.test(v), msg.invalid);

export const carSchema = z.object({
  carType: z.string().min(1, msg.required),
  registration: requiredText().max(20, msg.invalid),
  emptyWeight: optionalKg(),
  capacity: optionalKg(),
});

const baseShape = {
  lastname: requiredText(),
  firstname: requiredText(),
  nip: z
    .string()
    .trim()
    .regex(/^\d{0,10}$/, NIP_MESSAGE),
  phone: phoneText(),
  email: optionalEmail(),
  address: z.object(locationShape(true)),
  street: requiredText().max(200, msg.invalid),
  cars: z.array(carSchema),
};

export const carrierEditSchema = z.object(baseShape);
export const carrierCreateSchema = z.object({
  ...baseShape,
  clusterId: z.string(),
  bankName: z.string().min(1, msg.required),
  bankAccountNumber: requiredText().max(40, msg.invalid),
  momoNumber: phoneText(),
});
export type CarrierFormValues = z.infer<typeof carrierCreateSchema>;
export type CarFormValues = z.infer<typeof carSchema>;

export const emptyCar: CarFormValues = {
  carType: '',
  registration: '',
  emptyWeight: '',
  capacity: '',
};

export const emptyCarrierForm: CarrierFormValues = {
  lastname: '',
  firstname: '',
  nip: '',
  phone: '',
  email: '',
  address: emptyLocation,
  street: '',
  cars: [emptyCar],
  clusterId: '',
  bankName: '',
  bankAccountNumber: '',
  momoNumber: '',
};

export function toCarrierForm(c: Carrier): CarrierFormValues {
  return {
    lastname: c.user.lastname,
    firstname: c.user.firstname,
    nip: c.user.nip ?? '',
    phone: toLocalPhone(c.user.phone),
    email: c.user.email ?? '',
    address: {
      department: c.user.department,
      commune: c.user.borough,
      arrondissement: c.user.district,
      village: c.user.village,
    },
    street: c.carrier.address,
    cars: c.cars.map((car) => ({
      carType: car.carType,
      registration: car.registration,
      emptyWeight: car.emptyWeight === null ? '' : String(car.emptyWeight),
      capacity: String(car.capacity),
    })),
    clusterId: c.clusterId,
    bankName: c.accountInfo.providerName ?? '',
    bankAccountNumber: c.accountInfo.accountNumber ?? '',
    momoNumber: toLocalPhone(c.momoInfo.momoNumber),
  };
}

function userInput(v: CarrierFormValues): CarrierUserInput {
  return {
    lastname: v.lastname.trim(),
    firstname: v.firstname.trim(),
    nip: v.nip.trim(),
    phone: toE164(v.phone),
    email: v.email.trim(),
    department: v.address.department,
    borough: v.address.commune,
    district: v.address.arrondissement,
    village: v.address.village,
  };
}

const kg = (value: string) => (value.trim() === '' ? null : Number(value));

function carsInput(v: CarrierFormValues) {
  return v.cars.map((car) => ({
    carType: car.carType as CarType,
    registration: car.registration.trim(),
    emptyWeight: kg(car.emptyWeight),
    capacity: kg(car.capacity),
  }));
}

export function toCreateInput(v: CarrierFormValues): CreateCarrierInput {
  return {
    ...(v.clusterId ? { clusterId: v.clusterId } : {}),
    user: userInput(v),
    carrier: { address: v.street.trim() },
    cars: carsInput(v),
    accountInfo: { providerName: v.bankName, accountNumber: v.bankAccountNumber.trim() },
    momoInfo: { momoNumber: toE164(v.momoNumber) },
  };
}

export function toUpdateInput(v: CarrierFormValues): UpdateCarrierInput {
  return { user: userInput(v), carrier: { address: v.street.trim() }, cars: carsInput(v) };
}

export const isCarType = (value: string): value is CarType =>
  (CAR_TYPES as readonly string[]).includes(value);

const FIELD_OF: Record<string, string> = {
  'user.lastname': 'lastname',
  'user.firstname': 'firstname',
  'user.nip': 'nip',
  'user.phone': 'phone',
  'user.email': 'email',
  'user.department': 'address.department',
  'user.borough': 'address.commune',
  'user.district': 'address.arrondissement',
  'user.village': 'address.village',
  'carrier.address': 'street',
  clusterId: 'clusterId',
  'accountInfo.providerName': 'bankName',
  'accountInfo.accountNumber': 'bankAccountNumber',
  'momoInfo.momoNumber': 'momoNumber',
};

/** The form fields a server answer points at (cars.N.* included; 409 on the phone). */
export function serverFieldErrors(error: ApiError): [string, string][] {
  const out: [string, string][] = [];
  for (const [path, message] of Object.entries(error.fields ?? {})) {
    if (/^cars\.\d+\.\w+$/.test(path)) out.push([path, message]);
    else if (FIELD_OF[path]) out.push([FIELD_OF[path]!, message]);
  }
  if (
    error.status === 409 &&
    /PHONE/.test(error.reason ?? '') &&
    !out.some(([f]) => f === 'phone')
  ) {
    out.push(['phone', error.message]);
  }
  return out;
}
