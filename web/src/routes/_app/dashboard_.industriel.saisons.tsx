import { createFileRoute } from '@tanstack/react-router';
import { IndustrialSeasonsPage } from '../../features/seasons/industrial/index.js';
import { LINK_STATUSES } from '../../features/seasons/model/index.js';
import { enumParam, listSearch } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/**
 * dashboard/industriel/saisons ('Financement de la saison', the industrial): its seasons,
 * search, status and page in the URL. `dashboard_`: not nested in a dashboard screen.
 */
export const Route = createFileRoute('/_app/dashboard_/industriel/saisons')({
  validateSearch: listSearch({
    status: enumParam(LINK_STATUSES as readonly ['PENDING', 'CONFIRMED', 'CANCELED']),
  }),
  beforeLoad: ({ context }) => guardRoute('industrialSeasons', context.user),
  component: function IndustrialSeasons() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <IndustrialSeasonsPage search={search} onSearchChange={onSearchChange} />;
  },
});
