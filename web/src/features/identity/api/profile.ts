import { api } from '../../../shared/api/client.js';

export type ProfileField =
  'firstname' | 'lastname' | 'email' | 'phone' | 'momoAccountNumber' | 'bankAccountNumber';

/** Fields only their owner changes, confirming with the current password (server field rules). */
export const CONFIRMED_FIELDS: ReadonlySet<ProfileField> = new Set([
  'email',
  'phone',
  'momoAccountNumber',
  'bankAccountNumber',
]);

export const updateMyField = (
  field: ProfileField,
  value: string | null,
  currentPassword?: string,
) =>
  api<unknown>(`/users/me/${field}`, {
    method: 'PATCH',
    body: { [field]: value, ...(currentPassword === undefined ? {} : { currentPassword }) },
  });

/** The password change revokes every token issued before; the answer carries the new one. */
export const changeMyPassword = (body: {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}) =>
  api<{ message: string; access_token: string }>('/users/me/password', { method: 'POST', body });
