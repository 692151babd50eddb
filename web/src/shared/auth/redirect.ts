/** Where to go after login: the `redirect` query when it is a local path, else the profile
 * (the dashboard is a later issue; switch to '/dashboard' when it exists). */
export const HOME_PATH = '/profile';

export function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/auth')) {
    return HOME_PATH;
  }
  return target;
}
