import { createFileRoute } from '@tanstack/react-router';
import { CreateBatchPage } from '../../features/contracts/batches/components/CreateBatchPage.js';
import { createSearch } from '../../features/contracts/batches/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** createContratLivraisonMany: a file, or growers selected (tab, search, page in the URL). */
export const Route = createFileRoute('/_app/contrats/lots/create')({
  validateSearch: createSearch,
  beforeLoad: ({ context }) => guardRoute('contractBatchCreate', context.user),
  component: function CreateContractBatch() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <CreateBatchPage search={search} onSearchChange={onSearchChange} />;
  },
});
