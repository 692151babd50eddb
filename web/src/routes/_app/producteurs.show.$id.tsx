import { createFileRoute } from '@tanstack/react-router';
import { GrowerDetailPage } from '../../features/actors/growers/components/GrowerDetailPage.js';
import { listSearch } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** showProducteur: a grower's profile, plots and contracts (contracts' search in the URL). */
export const Route = createFileRoute('/_app/producteurs/show/$id')({
  validateSearch: listSearch({}),
  beforeLoad: ({ context }) => guardRoute('growers', context.user),
  component: function ShowGrower() {
    const { id } = Route.useParams();
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return (
      <GrowerDetailPage id={id} contractsSearch={search} onContractsSearchChange={onSearchChange} />
    );
  },
});
