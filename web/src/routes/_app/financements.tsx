import { createFileRoute } from '@tanstack/react-router';
import { FinancingsPage } from '../../features/wallet/components/FinancingsPage.js';
import { transactionListSearch } from '../../features/wallet/model/search.js';
import { guardRoute } from './-guard.js';

export const Route = createFileRoute('/_app/financements')({
  validateSearch: transactionListSearch,
  beforeLoad: ({ context }) => guardRoute('financings', context.user),
  component: function Financings() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <FinancingsPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
