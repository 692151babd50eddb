import { createFileRoute } from '@tanstack/react-router';
import { AuditPage } from '../../features/reporting/audit/components/AuditPage.js';
import { listSearch } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** The auditor's screen: the ledger's integrity and every wallet (search and page in the URL). */
export const Route = createFileRoute('/_app/audit')({
  validateSearch: listSearch({}),
  beforeLoad: ({ context }) => guardRoute('audit', context.user),
  component: function Audit() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <AuditPage search={search} onSearchChange={onSearchChange} />;
  },
});
