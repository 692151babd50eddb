import { api } from '../../../shared/api/client.js';

export type ProfileField = 'firstname' | 'lastname' | 'email';

export const updateMyField = (field: ProfileField, value: string) =>
  api<unknown>(`/users/me/${field}`, { method: 'PATCH', body: { [field]: value } });

export const changeMyPassword = (body: {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}) => api<unknown>('/users/me/password', { method: 'POST', body });
