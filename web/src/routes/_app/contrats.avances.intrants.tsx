import { createFileRoute } from '@tanstack/react-router';
import { AdvancesPage } from '../../features/contracts/advances/components/AdvancesPage.js';
import { advancesSearch } from '../../features/contracts/advances/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** The input advances (inputs delivered by code), search, filter, page in the URL. */
export const Route = createFileRoute('/_app/contrats/avances/intrants')({
  validateSearch: advancesSearch,
  beforeLoad: ({ context }) => guardRoute('inputAdvanceContracts', context.user),
  component: function InputAdvances() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return (
      <AdvancesPage kind="AVANCE_SUR_INTRANT" search={search} onSearchChange={onSearchChange} />
    );
  },
});
