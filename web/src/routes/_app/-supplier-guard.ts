import { redirect } from '@tanstack/react-router';
import { ROLES } from '../../shared/auth/roles.js';
import type { User } from '../../shared/auth/user.js';
import { guardRoute } from './-guard.js';

/** The supplier forms: the list's roles, but the aggregator only reads (back to the list). */
export function guardWriter(user: User): void {
  guardRoute('inputProviders', user);
  if (user.role?.code === ROLES.INDUSTRIAL) throw redirect({ to: '/fournisseurs-intrant' });
}
