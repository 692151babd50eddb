import { createFileRoute } from '@tanstack/react-router';
import { RequestsPage, requestsSearch } from '../../features/seasons/requests/index.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** op/demande/intrant: the growers' INPUT requests (industrial, farmer organization). */
export const Route = createFileRoute('/_app/op/demande/intrant')({
  validateSearch: requestsSearch,
  beforeLoad: ({ context }) => guardRoute('inputRequests', context.user),
  component: function InputRequests() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <RequestsPage type="INPUT" search={search} onSearchChange={onSearchChange} />;
  },
});
