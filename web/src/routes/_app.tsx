import { createFileRoute, redirect } from '@tanstack/react-router';
import { MainLayout } from '../app/layout/MainLayout.js';
import { isApiError } from '../shared/api/api-error.js';
import { currentUserQuery } from '../shared/auth/current-user.js';
import { clearSession, decodeToken, getToken } from '../shared/auth/session.js';
import { RouteError } from '../shared/ui/RouteError.js';

/**
 * Signed-in area: without a valid token, or when /users/me answers 401, go to login. Any
 * other failure of that check (cut short by a reload, server unreachable, server error)
 * keeps the session and shows the error with 'Réessayer': deleting the token then signed
 * out a user who reloaded the page right after signing in.
 */
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context, location, matches }) => {
    const token = getToken();
    const toLogin = () => redirect({ to: '/auth/login', search: { redirect: location.href } });
    if (!token || !decodeToken(token)) {
      clearSession();
      throw toLogin();
    }
    // The screen's code downloads while the user is checked, not after (one round trip less
    // on a mobile network); a failure here is TanStack's to report when it loads the screen.
    context.loadScreens(matches.map((m) => m.routeId));
    try {
      const user = await context.queryClient.ensureQueryData(currentUserQuery);
      return { user };
    } catch (error) {
      if (!isApiError(error, 401)) throw error;
      clearSession();
      throw toLogin();
    }
  },
  component: MainLayout,
  errorComponent: RouteError,
});
