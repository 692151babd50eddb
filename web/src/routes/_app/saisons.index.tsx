import { createFileRoute } from '@tanstack/react-router';
import { SeasonsPage } from '../../features/seasons/admin/SeasonsPage.js';
import { SEASON_STATUSES, type SeasonStatus } from '../../features/seasons/model/index.js';
import { enumParam, listSearch } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** admin-saison 'Saisons': search, status and page in the URL (super admin, cluster manager). */
export const Route = createFileRoute('/_app/saisons/')({
  validateSearch: listSearch({
    status: enumParam(SEASON_STATUSES as [SeasonStatus, ...SeasonStatus[]]),
  }),
  beforeLoad: ({ context }) => guardRoute('seasons', context.user),
  component: function Seasons() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <SeasonsPage search={search} onSearchChange={onSearchChange} />;
  },
});
