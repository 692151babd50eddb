import { createFileRoute } from '@tanstack/react-router';
import {
  EXCEPTION_STATUSES,
  KINDS,
  SOURCES,
} from '../../features/reconciliation/api/reconciliation.js';
import { ReconciliationPage } from '../../features/reconciliation/components/ReconciliationPage.js';
import { enumParam, listSearch, pageParam, textParam } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** 'Rapprochement': days per source and the exceptions (filters and pages in the URL). */
export const Route = createFileRoute('/_app/rapprochement')({
  validateSearch: listSearch({
    status: enumParam(EXCEPTION_STATUSES),
    source: enumParam(SOURCES),
    kind: enumParam(KINDS),
    days: pageParam,
    owner: textParam,
  }),
  beforeLoad: ({ context }) => guardRoute('reconciliation', context.user),
  component: function Reconciliation() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <ReconciliationPage search={search} onSearchChange={onSearchChange} />;
  },
});
