import { createFileRoute } from '@tanstack/react-router';
import { SuppliesPage } from '../../features/wallet/components/SuppliesPage.js';
import { supplyListSearch } from '../../features/wallet/model/search.js';
import { guardRoute } from './-guard.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';

export const Route = createFileRoute('/_app/approvisionnements')({
  validateSearch: supplyListSearch,
  beforeLoad: ({ context }) => guardRoute('supplies', context.user),
  component: function Supplies() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <SuppliesPage search={search} onSearchChange={onSearchChange} />;
  },
});
