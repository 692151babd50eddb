import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '../../features/identity/components/UsersPage.js';
import { listSearch, textParam } from '../../shared/search/list-search.js';
import { guardRoute } from './-guard.js';

export const Route = createFileRoute('/_app/utilisateurs')({
  validateSearch: listSearch({ role: textParam }),
  beforeLoad: ({ context }) => guardRoute('users', context.user),
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
