import { createFileRoute } from '@tanstack/react-router';
import { WalletPage } from '../../features/wallet/components/WalletPage.js';
import { transactionListSearch } from '../../features/wallet/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';

export const Route = createFileRoute('/_app/wallet')({
  validateSearch: transactionListSearch,
  component: function Wallet() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <WalletPage search={search} onSearchChange={onSearchChange} />;
  },
});
