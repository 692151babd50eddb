import { createFileRoute } from '@tanstack/react-router';
import { InputSupplyContractsPage } from '../../features/contracts/supply/components/InputSupplyContractsPage.js';
import { supplySearch } from '../../features/contracts/supply/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** contratsFournituresIntrants: search, page and (admins) the aggregator in the URL. */
export const Route = createFileRoute('/_app/contrats/fourniture/')({
  validateSearch: supplySearch,
  beforeLoad: ({ context }) => guardRoute('inputSupplyContracts', context.user),
  component: function InputSupplyContracts() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <InputSupplyContractsPage search={search} onSearchChange={onSearchChange} />;
  },
});
