import { z } from 'zod';
import { storableString } from '@filiere/platform';
import { ROLE_CODES } from '../kernel/roles.js';
import { isStrongPassword } from './password.js';
import { normalizeBeninPhone } from './phone.js';
import { ORGANIZATION_TYPES } from './roles.js';

/** French messages of the spec (§5). */
export const MSG = {
  required: 'Ce champ est obligatoire',
  email: 'Adresse mail invalide',
  password: 'Mot de passe invalide',
  mismatch: 'Les deux mots de passe ne sont pas identiques',
  phone: 'Numéro de téléphone invalide (8 chiffres, ou 10 chiffres commençant par 01)',
  invalid: 'Entré non valide',
  tooLong: (max: number) => `Ce champ doit contenir au plus ${max} caractères`,
} as const;

const requiredError = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? MSG.required : MSG.invalid;

/** A required, trimmed, bounded text. */
export const text = (max = 100) =>
  storableString({ error: requiredError }).trim().min(1, MSG.required).max(max, MSG.tooLong(max));

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const email = storableString({ error: requiredError })
  .trim()
  .min(1, MSG.required)
  .max(254, MSG.tooLong(254))
  .regex(EMAIL_RE, MSG.email)
  .toLowerCase();

export const phone = storableString({ error: requiredError })
  .min(1, MSG.required)
  .max(20, MSG.phone)
  .transform((value, ctx) => {
    const normalized = normalizeBeninPhone(value);
    if (!normalized) {
      ctx.issues.push({ code: 'custom', message: MSG.phone, input: value });
      return z.NEVER;
    }
    return normalized;
  });

export const password = storableString({ error: requiredError })
  .min(1, MSG.required)
  .max(128, MSG.tooLong(128))
  .refine(isStrongPassword, MSG.password);

/** Forms send '' for an empty optional field: read it as null. */
const emptyAsNull = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? null : value;

export const accountNumber = z.preprocess(
  emptyAsNull,
  storableString().trim().max(40, MSG.tooLong(40)).nullable().optional(),
);
const uuid = z.uuid(MSG.invalid);
const optionalUuid = z.preprocess(emptyAsNull, uuid.nullable().optional());

/** Role ids are integers 1–12; select inputs send them as strings, both are accepted. */
const roleId = z.coerce
  .number(MSG.invalid)
  .int(MSG.invalid)
  .min(1, MSG.invalid)
  .max(12, MSG.invalid);

export const idParams = z.object({ id: uuid });

export const roleSchema = z.object({ id: z.number(), name: z.string(), code: z.enum(ROLE_CODES) });
export const organizationSchema = z.object({
  id: z.string(),
  denomination: z.string(),
  organizationType: z.enum(ORGANIZATION_TYPES),
});

export const userSchema = z.object({
  id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  /** Null for a grower or carrier registered without one. */
  email: z.string().nullable(),
  username: z.string(),
  phone: z.string().nullable(),
  /** Numéro d'identification personnel (1–10 digits), when known. */
  nip: z.string().nullable(),
  role: roleSchema,
  roleId: z.number(),
  organization: organizationSchema.nullable(),
  organizationId: z.string().nullable(),
  walletId: z.string(),
  clusterId: z.string().nullable(),
  momoAccountNumber: z.string().nullable(),
  bankAccountNumber: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
});
export type UserDto = z.infer<typeof userSchema>;

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), count: z.number() });

export const okSchema = z.object({ message: z.string() });

export const listQuery = z.object({
  page: z.coerce.number(MSG.invalid).int(MSG.invalid).min(1, MSG.invalid).default(1),
  limit: z.coerce
    .number(MSG.invalid)
    .int(MSG.invalid)
    .min(-1, MSG.invalid)
    .max(1000, MSG.invalid)
    .refine((n) => n !== 0, MSG.invalid)
    .default(10),
  q: storableString().trim().max(100, MSG.tooLong(100)).optional(),
});

export const usersQuery = listQuery.extend({
  roles: storableString()
    .max(500, MSG.tooLong(500))
    .optional()
    .transform((value, ctx) => {
      const codes = (value ?? '')
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      for (const code of codes) {
        if (!(ROLE_CODES as readonly string[]).includes(code)) {
          ctx.issues.push({ code: 'custom', message: `Rôle inconnu : ${code}`, input: value });
          return z.NEVER;
        }
      }
      return codes as (typeof ROLE_CODES)[number][];
    }),
});

export const loginBody = z.object({
  email: email,
  password: storableString({ error: requiredError })
    .min(1, MSG.required)
    .max(128, MSG.tooLong(128)),
});
/**
 * The token and the signed-in user as GET /users/me gives it: the web app opens the dashboard
 * without asking /users/me first (one round trip less between 'Se connecter' and the figures).
 */
export const loginAnswer = z.object({ access_token: z.string(), user: userSchema });

export const TYPE_USERS = ['user', 'industrial', 'cluster-manager', 'sfd'] as const;
export const signupQuery = z.object({ typeUser: z.enum(TYPE_USERS, MSG.invalid) });
export const signupBody = z.object({
  firstname: text(),
  lastname: text(),
  email,
  username: storableString().trim().max(254, MSG.tooLong(254)).optional(),
  phone,
  ifu: storableString()
    .trim()
    .max(20, MSG.tooLong(20))
    .regex(/^[0-9A-Za-z]*$/, MSG.invalid)
    .optional(),
  denomination: storableString().trim().max(150, MSG.tooLong(150)).optional(),
  roleId: z.preprocess(emptyAsNull, roleId.optional().nullable()),
  roleCode: z.enum(ROLE_CODES, MSG.invalid).optional(),
  organizationId: optionalUuid,
  clusterId: optionalUuid,
  walletId: storableString().max(100).optional(),
  momoAccountNumber: accountNumber,
  bankAccountNumber: accountNumber,
});
export type SignupBody = z.infer<typeof signupBody>;

export const emailBody = z.object({ email });
export const emailParams = z.object({ email });

const confirmation = storableString({ error: requiredError }).max(128);
const withConfirmation = <T extends z.ZodRawShape>(
  shape: T,
  field: string,
  confirmPassword: z.ZodType = confirmation,
) =>
  z
    .object({ ...shape, confirmPassword })
    .refine(
      (body: Record<string, unknown>) =>
        body.confirmPassword === undefined || body[field] === body.confirmPassword,
      { message: MSG.mismatch, path: ['confirmPassword'] },
    );

/**
 * A password from a mailed link. The original client sends no `confirmPassword` (its form
 * compares the two fields itself): optional here, and when sent it must match.
 */
export const tokenPasswordBody = withConfirmation(
  { token: text(200), email, password },
  'password',
  confirmation.optional(),
);
/** The link of a set-password page, checked when the page opens. */
export const linkCheckBody = z.object({
  token: text(200),
  email,
  type: z.enum(['INVITATION', 'RESET'], MSG.invalid),
});
export const linkCheckAnswer = z.object({ valid: z.boolean() });

export const changePasswordBody = withConfirmation(
  {
    oldPassword: storableString({ error: requiredError }).min(1, MSG.required).max(128),
    newPassword: password,
  },
  'newPassword',
);

/** The caller's current password: confirms a change of its e-mail, phone or payout accounts. */
export const currentPassword = storableString({ error: requiredError })
  .min(1, MSG.required)
  .max(128, MSG.tooLong(128));

export const updateUserBody = z
  .object({
    firstname: text(),
    lastname: text(),
    email,
    phone,
    roleId: z.preprocess(emptyAsNull, roleId.nullable().optional()),
    clusterId: optionalUuid,
    organizationId: optionalUuid,
    momoAccountNumber: accountNumber,
    bankAccountNumber: accountNumber,
    currentPassword,
  })
  .partial();
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const industrialSchema = z.object({
  id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  organization: organizationSchema.nullable(),
});
export const clusterSchema = z.object({ id: z.string(), label: z.string() });
export const organizationListItem = organizationSchema.extend({ ifu: z.string().nullable() });
