import { createFileRoute, redirect } from '@tanstack/react-router';
import { MainLayout } from '../app/layout/MainLayout.js';
import { isApiError } from '../shared/api/api-error.js';
import { ensureCurrentUser, useCurrentUserFailure } from '../shared/auth/current-user.js';
import { clearSession, decodeToken, getToken } from '../shared/auth/session.js';
import { RouteError } from '../shared/ui/RouteError.js';

/**
 * Signed-in area: without a valid token, or when /users/me answers 401, go to login. Any
 * other failure of that check (cut short by a reload, server unreachable, server error)
 * keeps the session and shows the error with 'Réessayer': deleting the token then signed
 * out a user who reloaded the page right after signing in. With this browser's copy of the
 * user, the screen does not wait for /users/me (`ensureCurrentUser`).
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
      const user = await ensureCurrentUser(context.queryClient);
      return { user };
    } catch (error) {
      if (!isApiError(error, 401)) throw error;
      clearSession();
      throw toLogin();
    }
  },
  component: function SignedInArea() {
    // /users/me asked beside the screen (a copy of the user opened it) failed: shown as a
    // failure of the check before it would have been, with Réessayer.
    const failure = useCurrentUserFailure();
    if (failure) throw failure;
    return <MainLayout />;
  },
  errorComponent: RouteError,
});
