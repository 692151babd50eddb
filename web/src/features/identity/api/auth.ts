import { api } from '../../../shared/api/client.js';
import type { ApiBody, ApiResponse } from '../../../shared/api/types.js';

export type LoginAnswer = ApiResponse<'/api/auth/login', 'post'>;

export type SignupType = 'industrial' | 'cluster-manager' | 'sfd';

export type SignupBody = ApiBody<'/api/users/invitation/signup'>;

export const login = (body: { email: string; password: string }) =>
  api<LoginAnswer>('/auth/login', { method: 'POST', body, skipAuthRedirect: true });

export const signup = (typeUser: SignupType, body: SignupBody) =>
  api<unknown>('/users/invitation/signup', { method: 'POST', query: { typeUser }, body });

export const resendInvitation = (email: string) =>
  api<unknown>('/users/invitation/resend', { method: 'POST', body: { email } });

export type PasswordWithToken = ApiBody<'/api/users/validation/signup'>;

/** `active`: the account may sign in now (an administrator created it), else it awaits activation. */
export const validateSignup = (body: PasswordWithToken) =>
  api<ApiResponse<'/api/users/validation/signup', 'post'>>('/users/validation/signup', {
    method: 'POST',
    body,
    skipAuthRedirect: true,
  });

export const forgotPassword = (email: string) =>
  api<unknown>(`/users/forgot-password/${encodeURIComponent(email)}`, { method: 'POST', body: {} });

export const resetPassword = (body: PasswordWithToken) =>
  api<unknown>('/users/reset-password', { method: 'POST', body, skipAuthRedirect: true });

export type LinkType = ApiBody<'/api/users/link/check'>['type'];

/** Whether a mailed link still sets a password (checked when its page opens; not spent). */
export const checkLink = (body: { token: string; email: string; type: LinkType }) =>
  api<ApiResponse<'/api/users/link/check', 'post'>>('/users/link/check', {
    method: 'POST',
    body,
    skipAuthRedirect: true,
  });
