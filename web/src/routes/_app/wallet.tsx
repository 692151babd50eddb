import { createFileRoute } from '@tanstack/react-router';
import { WalletPage } from '../../features/wallet/components/WalletPage.js';
import { transactionListSearch } from '../../features/wallet/model/search.js';

export const Route = createFileRoute('/_app/wallet')({
  validateSearch: transactionListSearch,
  component: function Wallet() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <WalletPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
