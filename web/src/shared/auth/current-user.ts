import { queryOptions, useQuery } from '@tanstack/react-query';
import { NetworkError } from '../api/api-error.js';
import { api } from '../api/client.js';
import { applyUserLanguage } from '../i18n/index.js';
import { decodeToken, getToken, rememberUser } from './session.js';
import type { User } from './user.js';

/** The last /users/me answer, so that a reload without network still opens the signed-in app. */
const LAST_USER_KEY = 'last_user';

/**
 * Without network (no answer at all), the last user this browser read for the same token's
 * subject: the field screens (the depot's deliveries) keep working offline. Any answer of the
 * server, 401 included, is taken as it is; signing out removes the copy (clearSession).
 */
function lastUser(): User | null {
  const token = getToken();
  const claims = token ? decodeToken(token) : null;
  try {
    const user = JSON.parse(localStorage.getItem(LAST_USER_KEY) ?? 'null') as User | null;
    return user && claims && user.id === claims.sub ? user : null;
  } catch {
    return null;
  }
}

export const currentUserQuery = queryOptions({
  queryKey: ['users', 'me'],
  queryFn: async () => {
    let user: User;
    try {
      user = await api<User>('/users/me');
      localStorage.setItem(LAST_USER_KEY, JSON.stringify(user));
    } catch (error) {
      const kept = error instanceof NetworkError ? lastUser() : null;
      if (!kept) throw error;
      user = kept;
    }
    if (user.role) rememberUser({ id: user.id, role: user.role });
    await applyUserLanguage(user.id);
    return user;
  },
  staleTime: 60_000,
  retry: false,
  // Asked even when the browser says it is offline: the answer (or its absence) decides.
  networkMode: 'always',
});

/** The signed-in user; routes under the main layout have loaded it already. */
export function useCurrentUser(): User | undefined {
  return useQuery({ ...currentUserQuery, enabled: Boolean(getToken()) }).data;
}
