import { createFileRoute } from '@tanstack/react-router';
import { DeliveryContractsPage } from '../../features/contracts/delivery/components/DeliveryContractsPage.js';
import { deliveryContractsSearch } from '../../features/contracts/delivery/model/statuses.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** contratsLivraisons: the delivery contracts, search, filter, page and a run's id in the URL. */
export const Route = createFileRoute('/_app/contrats/livraison/')({
  validateSearch: deliveryContractsSearch,
  beforeLoad: ({ context }) => guardRoute('deliveryContracts', context.user),
  component: function DeliveryContracts() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <DeliveryContractsPage search={search} onSearchChange={onSearchChange} />;
  },
});
