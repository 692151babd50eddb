import { createFileRoute } from '@tanstack/react-router';
import { AdvancesPage } from '../../features/contracts/advances/components/AdvancesPage.js';
import { advancesSearch } from '../../features/contracts/advances/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** The SFD's social financings (accepted SOCIAL requests), search, filter, page in the URL. */
export const Route = createFileRoute('/_app/contrats/avances/social')({
  validateSearch: advancesSearch,
  beforeLoad: ({ context }) => guardRoute('socialFinancingContracts', context.user),
  component: function SocialFinancings() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return (
      <AdvancesPage kind="FINANCEMENT_SOCIAL" search={search} onSearchChange={onSearchChange} />
    );
  },
});
