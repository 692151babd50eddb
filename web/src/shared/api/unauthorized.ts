/** Paths from which a 401 does not redirect to login (spec: login, root, signup-invitation). */
const NO_REDIRECT = ['/auth/login', '/auth/signup-invitation'];

/** Where a 401 received on `pathname` (+ `search`) sends the user, or null to stay. */
export function loginRedirectFor(pathname: string, search = ''): string | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/auth' || NO_REDIRECT.includes(path)) return null;
  return `/auth/login?redirect=${encodeURIComponent(path + search)}`;
}
