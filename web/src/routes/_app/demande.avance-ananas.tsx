import { createFileRoute } from '@tanstack/react-router';
import { RequestsPage, requestsSearch } from '../../features/seasons/requests/index.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** /demande/avance-ananas: the growers' PINEAPLE requests (industrial, farmer organization). */
export const Route = createFileRoute('/_app/demande/avance-ananas')({
  validateSearch: requestsSearch,
  beforeLoad: ({ context }) => guardRoute('pineappleRequests', context.user),
  component: function PineappleRequests() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <RequestsPage type="PINEAPLE" search={search} onSearchChange={onSearchChange} />;
  },
});
