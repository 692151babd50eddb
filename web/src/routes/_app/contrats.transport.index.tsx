import { createFileRoute } from '@tanstack/react-router';
import { CarriagePage } from '../../features/contracts/carriage/components/CarriagePage.js';
import { carriageSearch } from '../../features/contracts/carriage/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** 'Contrats de transport': search, status and page in the URL. */
export const Route = createFileRoute('/_app/contrats/transport/')({
  validateSearch: carriageSearch,
  beforeLoad: ({ context }) => guardRoute('carriageContracts', context.user),
  component: function CarriageContracts() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <CarriagePage search={search} onSearchChange={onSearchChange} />;
  },
});
