import { createFileRoute } from '@tanstack/react-router';
import { PayoutRequestsPage } from '../../../features/actors/payout/components/PayoutRequestsPage.js';
import { REQUEST_STATUSES } from '../../../features/actors/payout/model/types.js';
import { enumParam, listSearch } from '../../../shared/search/list-search.js';
import { guardRoute } from '../-guard.js';

export const Route = createFileRoute('/_app/admin/demandes-compte')({
  validateSearch: listSearch({ status: enumParam(REQUEST_STATUSES) }),
  beforeLoad: ({ context }) => guardRoute('payoutRequests', context.user),
  component: function PayoutRequests() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <PayoutRequestsPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
