import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '../../features/identity/components/UsersPage.js';
import { listSearch, textParam } from '../../shared/search/list-search.js';
import { guardRoute } from './-guard.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';

export const Route = createFileRoute('/_app/utilisateurs')({
  validateSearch: listSearch({ role: textParam }),
  beforeLoad: ({ context }) => guardRoute('users', context.user),
  component: function Users() {
    const { page = 1, q, role } = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <UsersPage search={{ page, q, role }} onSearchChange={onSearchChange} />;
  },
});
