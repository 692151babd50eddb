import { createFileRoute } from '@tanstack/react-router';
import { AdminSuppliesPage } from '../../../features/wallet/components/AdminSuppliesPage.js';
import { adminSupplySearch } from '../../../features/wallet/model/search.js';
import { guardRoute } from '../-guard.js';

export const Route = createFileRoute('/_app/admin/approvisionnements')({
  validateSearch: adminSupplySearch,
  beforeLoad: ({ context }) => guardRoute('adminSupplies', context.user),
  component: function AdminSupplies() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <AdminSuppliesPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
