import { createFileRoute } from '@tanstack/react-router';
import { COOPERATIVE_STATUSES } from '../../features/actors/cooperatives/api/cooperatives.js';
import { CooperativesPage } from '../../features/actors/cooperatives/components/CooperativesPage.js';
import { enumParam, listSearch } from '../../shared/search/list-search.js';
import { guardRoute } from './-guard.js';

/** ops: the cooperatives list, its search, page and (super admin) status in the URL. */
export const Route = createFileRoute('/_app/organisations-paysannes/')({
  validateSearch: listSearch({
    status: enumParam(COOPERATIVE_STATUSES as ['active', 'inactive']),
  }),
  beforeLoad: ({ context }) => guardRoute('cooperatives', context.user),
  component: function Cooperatives() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <CooperativesPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
