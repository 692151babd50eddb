import { createFileRoute } from '@tanstack/react-router';
import { CARRIER_STATUSES } from '../../features/actors/carriers/api/carriers.js';
import { CarriersPage } from '../../features/actors/carriers/components/CarriersPage.js';
import { enumParam, listSearch } from '../../shared/search/list-search.js';
import { guardRoute } from './-guard.js';

/** transporteurs: the carriers list, its search, page and status in the URL. */
export const Route = createFileRoute('/_app/transporteurs/')({
  validateSearch: listSearch({ status: enumParam(CARRIER_STATUSES as ['active', 'inactive']) }),
  beforeLoad: ({ context }) => guardRoute('carriers', context.user),
  component: function Carriers() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <CarriersPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
