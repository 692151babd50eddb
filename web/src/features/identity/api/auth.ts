import { api } from '../../../shared/api/client.js';

export interface LoginAnswer {
  access_token: string;
  user: { id: string; role: { code: string } };
}

export type SignupType = 'industrial' | 'cluster-manager' | 'sfd';

export interface SignupBody {
  firstname: string;
  lastname: string;
  email: string;
  username: string;
  phone: string;
  ifu?: string;
  denomination?: string;
}

export const login = (body: { email: string; password: string }) =>
  api<LoginAnswer>('/auth/login', { method: 'POST', body, skipAuthRedirect: true });

export const signup = (typeUser: SignupType, body: SignupBody) =>
  api<unknown>('/users/invitation/signup', { method: 'POST', query: { typeUser }, body });

export const resendInvitation = (email: string) =>
  api<unknown>('/users/invitation/resend', { method: 'POST', body: { email } });

export interface PasswordWithToken {
  token: string;
  email: string;
  password: string;
  confirmPassword: string;
}

/** `active`: the account may sign in now (an administrator created it), else it awaits activation. */
export const validateSignup = (body: PasswordWithToken) =>
  api<{ message: string; active?: boolean }>('/users/validation/signup', {
    method: 'POST',
    body,
    skipAuthRedirect: true,
  });

export const forgotPassword = (email: string) =>
  api<unknown>(`/users/forgot-password/${encodeURIComponent(email)}`, { method: 'POST', body: {} });

export const resetPassword = (body: PasswordWithToken) =>
  api<unknown>('/users/reset-password', { method: 'POST', body, skipAuthRedirect: true });

export type LinkType = 'INVITATION' | 'RESET';

/** Whether a mailed link still sets a password (checked when its page opens; not spent). */
export const checkLink = (body: { token: string; email: string; type: LinkType }) =>
  api<{ valid: boolean }>('/users/link/check', { method: 'POST', body, skipAuthRedirect: true });
