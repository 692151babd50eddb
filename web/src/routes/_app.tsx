import { createFileRoute, redirect } from '@tanstack/react-router';
import { MainLayout } from '../app/layout/MainLayout.js';
import { currentUserQuery } from '../shared/auth/current-user.js';
import { clearSession, decodeToken, getToken } from '../shared/auth/session.js';

/** Signed-in area: without a valid token, or when /users/me fails, go to login. */
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context, location }) => {
    const token = getToken();
    const toLogin = () => redirect({ to: '/auth/login', search: { redirect: location.href } });
    if (!token || !decodeToken(token)) {
      clearSession();
      throw toLogin();
    }
    try {
      const user = await context.queryClient.ensureQueryData(currentUserQuery);
      return { user };
    } catch {
      clearSession();
      throw toLogin();
    }
  },
  component: MainLayout,
});
