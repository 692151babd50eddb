import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { UsersPage } from '../../features/identity/components/UsersPage.js';
import { HOME_PATH } from '../../shared/auth/redirect.js';
import { canAccess } from '../../shared/navigation/menu.js';
import { routeByKey } from '../../shared/navigation/routes.js';

const search = z.object({
  page: z.coerce.number().int().min(1).optional().catch(undefined),
  q: z.string().optional().catch(undefined),
  role: z.string().optional().catch(undefined),
});

export const Route = createFileRoute('/_app/utilisateurs')({
  validateSearch: search,
  beforeLoad: ({ context }) => {
    if (!canAccess(routeByKey('users'), context.user.role?.code ?? '')) {
      throw redirect({ href: HOME_PATH });
    }
  },
  component: function Users() {
    const { page = 1, q, role } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <UsersPage
        search={{ page, q, role }}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
