import { createFileRoute, useRouter } from '@tanstack/react-router';
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
    const router = useRouter();
    return (
      <GrowersPage
        search={search}
        onSearchChange={(next) => {
          // The search box reports after a pause: once the user has left for a grower's
          // page, a late report must not bring them back to the list.
          if (router.state.location.pathname !== '/producteurs') return;
          void navigate({ search: (prev) => ({ ...prev, ...next }), replace: true });
        }}
      />
    );
  },
});
