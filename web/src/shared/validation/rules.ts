import { z } from 'zod';

/**
 * Form rules of the spec (§5). Messages are i18n keys in the `validation`
 * namespace; fields render them through `t`, so French texts stay exact.
 */
export const msg = {
  required: 'validation:required',
  email: 'validation:email',
  password: 'validation:password',
  mismatch: 'validation:mismatch',
  invalid: 'validation:invalid',
  phone: 'validation:phone',
} as const;

/**
 * zod's own messages are English ('Invalid input: expected string, received number'): every
 * issue a schema gives no message of its own gets an i18n key instead, so no zod text can
 * reach a user. Schema messages (the keys above) still win; `useFieldError` translates.
 */
export function zodIssueKey(issue: { code: string; input?: unknown }): string {
  const absent = issue.input === undefined || issue.input === null || issue.input === '';
  return issue.code === 'invalid_type' && absent ? msg.required : msg.invalid;
}
z.config({ customError: zodIssueKey });

export const requiredText = () => z.string().trim().min(1, msg.required);

export const emailText = () => z.string().trim().min(1, msg.required).email(msg.email);

/** Benin phone: 8 digits (former plan) or 10 digits starting with 01. */
export const phoneText = () =>
  z
    .string()
    .trim()
    .min(1, msg.required)
    .regex(/^(\d{8}|01\d{8})$/, msg.phone);

export interface PasswordRule {
  key: 'uppercase' | 'length' | 'digit' | 'special';
  test: (value: string) => boolean;
}

/** The four rules of the live checklist, in the spec's order. */
export const PASSWORD_RULES: PasswordRule[] = [
  { key: 'uppercase', test: (v) => /[A-Z]/.test(v) },
  { key: 'length', test: (v) => v.length >= 8 },
  { key: 'digit', test: (v) => /\d/.test(v) },
  { key: 'special', test: (v) => /[#?*+/@!]/.test(v) },
];

export function passwordIsValid(value: string): boolean {
  return PASSWORD_RULES.every((rule) => rule.test(value));
}

export const passwordText = () =>
  z.string().min(1, msg.required).refine(passwordIsValid, msg.password);

/** A new password and its confirmation, which must be equal. */
export const passwordPair = () =>
  z
    .object({ password: passwordText(), confirmPassword: z.string().min(1, msg.required) })
    .refine((v) => v.password === v.confirmPassword, {
      message: msg.mismatch,
      path: ['confirmPassword'],
    });
