import { createFileRoute } from '@tanstack/react-router';
import { GROWER_STATUSES } from '../../features/actors/growers/api/growers.js';
import { GrowersPage } from '../../features/actors/growers/components/GrowersPage.js';
import { enumParam, listSearch } from '../../shared/search/list-search.js';
import { guardRoute } from './-guard.js';

/** producteurs: the growers list, its search, page and (super admin) status in the URL. */
export const Route = createFileRoute('/_app/producteurs/')({
  validateSearch: listSearch({ status: enumParam(GROWER_STATUSES as ['active', 'inactive']) }),
  beforeLoad: ({ context }) => guardRoute('growers', context.user),
  component: function Growers() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <GrowersPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
