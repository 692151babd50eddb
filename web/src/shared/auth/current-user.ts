import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { isApiError, NetworkError } from '../api/api-error.js';
import { api } from '../api/client.js';
import { applyUserLanguage } from '../i18n/index.js';
import { decodeToken, getToken, rememberUser, saveSession } from './session.js';
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

/** What the browser keeps of the user the server gave: the copy, the role, the language. */
async function keep(user: User, copy: boolean): Promise<User> {
  if (copy) localStorage.setItem(LAST_USER_KEY, JSON.stringify(user));
  if (user.role) rememberUser({ id: user.id, role: user.role });
  await applyUserLanguage(user.id);
  return user;
}

export const currentUserQuery = queryOptions({
  queryKey: ['users', 'me'],
  queryFn: async () => {
    try {
      return await keep(await api<User>('/users/me'), true);
    } catch (error) {
      const kept = error instanceof NetworkError ? lastUser() : null;
      if (!kept) throw error;
      return keep(kept, false);
    }
  },
  staleTime: 60_000,
  retry: false,
  // Asked even when the browser says it is offline: the answer (or its absence) decides.
  networkMode: 'always',
});

/**
 * After sign-in: the login's answer carries the user as /users/me gives it, so the first screen
 * opens without asking /users/me (one round trip less before the dashboard's figures).
 */
export async function signedIn(queryClient: QueryClient, token: string, user: User): Promise<void> {
  queryClient.clear();
  saveSession(token, user);
  queryClient.setQueryData(currentUserQuery.queryKey, await keep(user, true));
}

/**
 * The signed-in area's user, before its first screen. With this browser's copy of the last
 * /users/me answer for the token's subject, the screen opens on it at once and /users/me is asked
 * beside the screen's own queries (its 401 signs out as any 401 does, api/client.ts; another
 * failure is shown by the area, `useCurrentUserFailure`); without a copy, /users/me is awaited.
 * After a failure (Réessayer), /users/me is asked again.
 */
export async function ensureCurrentUser(queryClient: QueryClient): Promise<User> {
  const state = queryClient.getQueryState<User>(currentUserQuery.queryKey);
  if (state?.status === 'success' && state.data) return state.data;
  const kept = state ? null : lastUser();
  if (!kept) return queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 });
  // Stale from the start: the prefetch asks the server now.
  queryClient.setQueryData(currentUserQuery.queryKey, await keep(kept, false), { updatedAt: 0 });
  void queryClient.prefetchQuery(currentUserQuery);
  return kept;
}

/**
 * The failure of /users/me asked in the background (`ensureCurrentUser`), for the signed-in
 * area to show: a server error; not a 401 (the client is already on its way to login).
 */
export function useCurrentUserFailure(): Error | null {
  const { error } = useQuery({ ...currentUserQuery, enabled: Boolean(getToken()) });
  return error && !isApiError(error, 401) ? error : null;
}

/** The signed-in user; routes under the main layout have loaded it already. */
export function useCurrentUser(): User | undefined {
  return useQuery({ ...currentUserQuery, enabled: Boolean(getToken()) }).data;
}
