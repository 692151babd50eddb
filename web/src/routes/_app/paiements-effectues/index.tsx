import { createFileRoute } from '@tanstack/react-router';
import { PaymentsPage } from '../../../features/wallet/components/PaymentsPage.js';
import { transactionListSearch } from '../../../features/wallet/model/search.js';
import { guardRoute } from '../-guard.js';

export const Route = createFileRoute('/_app/paiements-effectues/')({
  validateSearch: transactionListSearch,
  beforeLoad: ({ context }) => guardRoute('payments', context.user),
  component: function Payments() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <PaymentsPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
