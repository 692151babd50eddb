import type { ApiResponse } from '../api/types.js';

/** The signed-in user as `GET /users/me` answers it (shared by every feature). */
export type User = ApiResponse<'/api/users/me'>;

/** Fixed integer ids (1 super admin … 12 SFD), as the API sends them. */
export type Role = User['role'];

export type Organization = NonNullable<User['organization']>;

export interface Page<T> {
  data: T[];
  count: number;
}

/** List answers are `{data, count}` or a plain array (count taken as 20, per the spec). */
export function toPage<T>(answer: Page<T> | T[]): Page<T> {
  return Array.isArray(answer) ? { data: answer, count: 20 } : answer;
}
