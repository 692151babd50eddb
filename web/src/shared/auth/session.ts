/**
 * The session as the spec keeps it: the access token in localStorage, the role
 * code and user id in sessionStorage (a reopened tab reloads them from /users/me).
 */
const TOKEN_KEY = 'access_token';
const ROLE_KEY = 'role_code';
const USER_KEY = 'user_id';
/** The wallet's reads of the last visit (app/kept-reads.ts), the signed-in user's only. */
export const KEPT_READS_KEY = 'kept_reads';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function saveSession(token: string, user: { id: string; role: { code: string } }): void {
  localStorage.setItem(TOKEN_KEY, token);
  sessionStorage.setItem(ROLE_KEY, user.role.code);
  sessionStorage.setItem(USER_KEY, String(user.id));
}

export function rememberUser(user: { id: string; role: { code: string } }): void {
  sessionStorage.setItem(ROLE_KEY, user.role.code);
  sessionStorage.setItem(USER_KEY, String(user.id));
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem('last_user');
  localStorage.removeItem(KEPT_READS_KEY);
  sessionStorage.removeItem(ROLE_KEY);
  sessionStorage.removeItem(USER_KEY);
}

/** Claims of a JWT without verifying it (the server verifies); null when unreadable or expired. */
export function decodeToken(token: string, now = Date.now()): { sub: string; role: string } | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { sub?: unknown; role?: unknown; exp?: unknown };
    if (typeof claims.sub !== 'string' || typeof claims.role !== 'string') return null;
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= now) return null;
    return { sub: claims.sub, role: claims.role };
  } catch {
    return null;
  }
}
