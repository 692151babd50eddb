import { createFileRoute } from '@tanstack/react-router';
import { walletHoldsQuery } from '../../features/wallet/api/holds.js';
import { walletStatsQuery } from '../../features/wallet/api/stats.js';
import { transactionsQuery, yearlyStatsQuery } from '../../features/wallet/api/transactions.js';
import { WalletPage } from '../../features/wallet/components/WalletPage.js';
import { transactionListSearch } from '../../features/wallet/model/search.js';
import { listQuery } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';

/**
 * 'Mon Wallet'. The loader asks for the screen's reads as soon as the user is known, while its
 * code loads and renders (it does not wait for them: a return visit shows the kept balance).
 */
export const Route = createFileRoute('/_app/wallet')({
  validateSearch: transactionListSearch,
  loaderDeps: ({ search }) => ({ search }),
  loader: ({ context: { queryClient, user }, deps: { search } }) => {
    void queryClient.prefetchQuery(walletStatsQuery);
    void queryClient.prefetchQuery(walletHoldsQuery(1));
    void queryClient.prefetchQuery(transactionsQuery(listQuery(search)));
    if (user.walletId) {
      const year = search.year ?? new Date().getFullYear();
      void queryClient.prefetchQuery(yearlyStatsQuery(user.walletId, year));
    }
  },
  component: function Wallet() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <WalletPage search={search} onSearchChange={onSearchChange} />;
  },
});
