import { redirect } from '@tanstack/react-router';
import { HOME_PATH } from '../../shared/auth/redirect.js';
import type { User } from '../../shared/auth/user.js';
import { canAccess } from '../../shared/navigation/menu.js';
import { routeByKey } from '../../shared/navigation/routes.js';

/** Sends a user whose role the route table does not list for `key` home. */
export function guardRoute(key: string, user: User): void {
  if (!canAccess(routeByKey(key), user.role?.code ?? '')) throw redirect({ href: HOME_PATH });
}
