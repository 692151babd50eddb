import { createFileRoute } from '@tanstack/react-router';
import { SubContractsPage } from '../../features/contracts/batches/components/SubContractsPage.js';
import { subContractsSearch } from '../../features/contracts/batches/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** sousContratsLivraisons: a parent's sub-contracts (search, filter, page in the URL). */
export const Route = createFileRoute('/_app/contrats/lots/$id')({
  validateSearch: subContractsSearch,
  beforeLoad: ({ context }) => guardRoute('contractBatches', context.user),
  component: function ContractBatchSubContracts() {
    const { id } = Route.useParams();
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <SubContractsPage parentId={id} search={search} onSearchChange={onSearchChange} />;
  },
});
