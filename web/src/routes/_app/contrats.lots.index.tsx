import { createFileRoute } from '@tanstack/react-router';
import { ParentsPage } from '../../features/contracts/batches/components/ParentsPage.js';
import { parentsSearch } from '../../features/contracts/batches/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** The parent contracts (LIVRAISON_PARENT), search and page in the URL. */
export const Route = createFileRoute('/_app/contrats/lots/')({
  validateSearch: parentsSearch,
  beforeLoad: ({ context }) => guardRoute('contractBatches', context.user),
  component: function ContractBatches() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <ParentsPage search={search} onSearchChange={onSearchChange} />;
  },
});
