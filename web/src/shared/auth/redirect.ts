/** Where to go after login (spec: "else the dashboard"): the `redirect` query when it is a
 * local path, else the dashboard (tableauBord), which every role has. */
export const HOME_PATH = '/dashboard';

export function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/auth')) {
    return HOME_PATH;
  }
  return target;
}
