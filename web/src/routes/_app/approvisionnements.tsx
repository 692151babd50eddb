import { createFileRoute } from '@tanstack/react-router';
import { SuppliesPage } from '../../features/wallet/components/SuppliesPage.js';
import { supplyListSearch } from '../../features/wallet/model/search.js';
import { guardRoute } from './-guard.js';

export const Route = createFileRoute('/_app/approvisionnements')({
  validateSearch: supplyListSearch,
  beforeLoad: ({ context }) => guardRoute('supplies', context.user),
  component: function Supplies() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <SuppliesPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
