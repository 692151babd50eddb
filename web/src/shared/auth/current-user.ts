import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api/client.js';
import { applyUserLanguage } from '../i18n/index.js';
import { getToken, rememberUser } from './session.js';
import type { User } from './user.js';

export const currentUserQuery = queryOptions({
  queryKey: ['users', 'me'],
  queryFn: async () => {
    const user = await api<User>('/users/me');
    if (user.role) rememberUser({ id: user.id, role: user.role });
    await applyUserLanguage(user.id);
    return user;
  },
  staleTime: 60_000,
  retry: false,
});

/** The signed-in user; routes under the main layout have loaded it already. */
export function useCurrentUser(): User | undefined {
  return useQuery({ ...currentUserQuery, enabled: Boolean(getToken()) }).data;
}
