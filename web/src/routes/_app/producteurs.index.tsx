import { createFileRoute } from '@tanstack/react-router';
import { GROWER_STATUSES } from '../../features/actors/growers/api/growers.js';
import { GrowersPage } from '../../features/actors/growers/components/GrowersPage.js';
import { enumParam, listSearch } from '../../shared/search/list-search.js';
import { guardRoute } from './-guard.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';

/** producteurs: the growers list, its search, page and (super admin) status in the URL. */
export const Route = createFileRoute('/_app/producteurs/')({
  validateSearch: listSearch({ status: enumParam(GROWER_STATUSES as ['active', 'inactive']) }),
  beforeLoad: ({ context }) => guardRoute('growers', context.user),
  component: function Growers() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <GrowersPage search={search} onSearchChange={onSearchChange} />;
  },
});
