import { createFileRoute } from '@tanstack/react-router';
import { ZonesPage } from '../../features/sites/index.js';
import { listSearch } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** industriel/zones-de-couverture (the industrial): its coverage zones, search and page in the URL. */
export const Route = createFileRoute('/_app/industriel/zones-de-couverture')({
  validateSearch: listSearch({}),
  beforeLoad: ({ context }) => guardRoute('coverageZones', context.user),
  component: function CoverageZones() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <ZonesPage search={search} onSearchChange={onSearchChange} />;
  },
});
