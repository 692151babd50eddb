import { createFileRoute } from '@tanstack/react-router';
import { AdvancesPage } from '../../features/contracts/advances/components/AdvancesPage.js';
import { advancesSearch } from '../../features/contracts/advances/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** contratsAvancesAnanas: the pineapple advances (accepted PINEAPLE requests), search, filter, page in the URL. */
export const Route = createFileRoute('/_app/contrats/avance-ananas/')({
  validateSearch: advancesSearch,
  beforeLoad: ({ context }) => guardRoute('pineappleAdvanceContracts', context.user),
  component: function PineappleAdvances() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return (
      <AdvancesPage kind="AVANCE_SUR_ANANAS" search={search} onSearchChange={onSearchChange} />
    );
  },
});
