import { api } from '../../../shared/api/client.js';
import type { ApiBody, ApiResponse } from '../../../shared/api/types.js';

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
export const changeMyPassword = (body: ApiBody<'/api/users/me/password'>) =>
  api<ApiResponse<'/api/users/me/password', 'post'>>('/users/me/password', {
    method: 'POST',
    body,
  });
