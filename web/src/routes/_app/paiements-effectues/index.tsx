import { createFileRoute } from '@tanstack/react-router';
import { PaymentsPage } from '../../../features/wallet/components/PaymentsPage.js';
import { transactionListSearch } from '../../../features/wallet/model/search.js';
import { guardRoute } from '../-guard.js';
import { useSearchChange } from '../../../shared/search/use-search-change.js';

export const Route = createFileRoute('/_app/paiements-effectues/')({
  validateSearch: transactionListSearch,
  beforeLoad: ({ context }) => guardRoute('payments', context.user),
  component: function Payments() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <PaymentsPage search={search} onSearchChange={onSearchChange} />;
  },
});
