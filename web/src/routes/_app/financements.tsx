import { createFileRoute } from '@tanstack/react-router';
import { FinancingsPage } from '../../features/wallet/components/FinancingsPage.js';
import { transactionListSearch } from '../../features/wallet/model/search.js';
import { guardRoute } from './-guard.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';

export const Route = createFileRoute('/_app/financements')({
  validateSearch: transactionListSearch,
  beforeLoad: ({ context }) => guardRoute('financings', context.user),
  component: function Financings() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <FinancingsPage search={search} onSearchChange={onSearchChange} />;
  },
});
