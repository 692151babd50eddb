import { createFileRoute } from '@tanstack/react-router';
import { RequestsPage, requestsSearch } from '../../features/seasons/requests/index.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** /demande/financement-social: the SOCIAL requests asked of the SFD (not in the spec). */
export const Route = createFileRoute('/_app/demande/financement-social')({
  validateSearch: requestsSearch,
  beforeLoad: ({ context }) => guardRoute('socialRequests', context.user),
  component: function SocialRequests() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <RequestsPage type="SOCIAL" search={search} onSearchChange={onSearchChange} />;
  },
});
