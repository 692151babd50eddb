import { createFileRoute } from '@tanstack/react-router';
import { DeliveriesPage } from '../../features/seasons/deliveries/index.js';
import { listSearch } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** demandeIntrant 'Demandes d'intrants' (industrial, input provider): deliveries by grower code. */
export const Route = createFileRoute('/_app/demande/')({
  validateSearch: listSearch({}),
  beforeLoad: ({ context }) => guardRoute('inputDeliveries', context.user),
  component: function InputDeliveries() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <DeliveriesPage search={search} onSearchChange={onSearchChange} />;
  },
});
