import { createFileRoute } from '@tanstack/react-router';
import { AdminSuppliesPage } from '../../../features/wallet/components/AdminSuppliesPage.js';
import { adminSupplySearch } from '../../../features/wallet/model/search.js';
import { guardRoute } from '../-guard.js';
import { useSearchChange } from '../../../shared/search/use-search-change.js';

export const Route = createFileRoute('/_app/admin/approvisionnements')({
  validateSearch: adminSupplySearch,
  beforeLoad: ({ context }) => guardRoute('adminSupplies', context.user),
  component: function AdminSupplies() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <AdminSuppliesPage search={search} onSearchChange={onSearchChange} />;
  },
});
