/** The signed-in user as `GET /users/me` answers it (shared by every feature). */
export interface Role {
  /** Fixed integer ids (1 super admin … 12 SFD), as the API sends them. */
  id: number;
  name: string;
  code: string;
}

export interface Organization {
  id: string;
  denomination: string;
  organizationType: string;
}

export interface User {
  id: string;
  firstname: string;
  lastname: string;
  email: string;
  username: string;
  phone: string | null;
  role: Role | null;
  roleId: number | null;
  organization: Organization | null;
  organizationId: string | null;
  walletId: string | null;
  clusterId: string | null;
  momoAccountNumber: string | null;
  bankAccountNumber: string | null;
  isActive: boolean;
  createdAt: string;
}

export interface Page<T> {
  data: T[];
  count: number;
}

/** List answers are `{data, count}` or a plain array (count taken as 20, per the spec). */
export function toPage<T>(answer: Page<T> | T[]): Page<T> {
  return Array.isArray(answer) ? { data: answer, count: 20 } : answer;
}
