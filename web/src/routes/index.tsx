import { createFileRoute, redirect } from '@tanstack/react-router';
import { HOME_PATH } from '../shared/auth/redirect.js';
import { getToken } from '../shared/auth/session.js';

export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ href: getToken() ? HOME_PATH : '/auth/login' });
  },
});
