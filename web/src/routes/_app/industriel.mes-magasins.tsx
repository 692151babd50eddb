import { createFileRoute } from '@tanstack/react-router';
import { StoresPage } from '../../features/sites/index.js';
import { listSearch } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** industriel/mes-magasins ('Magasins', the industrial): its stores, search and page in the URL. */
export const Route = createFileRoute('/_app/industriel/mes-magasins')({
  validateSearch: listSearch({}),
  beforeLoad: ({ context }) => guardRoute('stores', context.user),
  component: function Stores() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <StoresPage search={search} onSearchChange={onSearchChange} />;
  },
});
