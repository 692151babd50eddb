import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';
import { toPage, type User } from '../../../shared/auth/user.js';
import type { ApiResponse, RowOf } from '../../../shared/api/types.js';
import { PAGE_SIZE, type ListSearch } from '../../../shared/search/list-search.js';

export interface UsersSearch extends Omit<ListSearch<never>, 'status'> {
  role?: string | undefined;
}

export const usersQuery = (search: UsersSearch) =>
  queryOptions({
    queryKey: ['users', 'list', search],
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/users'>>('/users', {
          query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q, roles: search.role },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const rolesQuery = queryOptions({
  queryKey: ['role'],
  queryFn: () => api<ApiResponse<'/api/role'>>('/role'),
  staleTime: Infinity,
});

export const inactiveCountQuery = queryOptions({
  queryKey: ['users', 'count-inactives'],
  queryFn: () => api<ApiResponse<'/api/users/count-inactives'>>('/users/count-inactives'),
});

/** `GET /clusters`: `{id, label}` (a cluster has no other name). */
export type Cluster = RowOf<ApiResponse<'/api/clusters'>>;

/** `GET /organizations`. */
export type OrganizationItem = RowOf<ApiResponse<'/api/organizations'>>;

export const clustersQuery = queryOptions({
  queryKey: ['clusters'],
  queryFn: async () =>
    toPage(await api<ApiResponse<'/api/clusters'>>('/clusters', { query: { limit: -1 } })),
  staleTime: 300_000,
});

export const organizationsQuery = queryOptions({
  queryKey: ['organizations'],
  queryFn: async () =>
    toPage(
      await api<ApiResponse<'/api/organizations'>>('/organizations', { query: { limit: -1 } }),
    ),
  staleTime: 300_000,
});

export interface UserInput {
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  /** A role id as its decimal text (the API accepts a number or a numeric string). */
  roleId: string;
  organizationId?: string;
  clusterId?: string;
  momoAccountNumber?: string;
  bankAccountNumber?: string;
}

export const createUser = (body: UserInput) =>
  api<User>('/users/invitation/signup', {
    method: 'POST',
    query: { typeUser: 'user' },
    body: { ...body, username: body.email },
  });

export const updateUser = (id: string, body: Partial<UserInput>) =>
  api<User>(`/users/${id}`, { method: 'PATCH', body });

export const deleteUser = (id: string) => api<undefined>(`/users/${id}`, { method: 'DELETE' });

export const toggleActivation = (id: string) => api<User>(`/users/activate-account/${id}`);
