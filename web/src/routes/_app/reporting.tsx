import { createFileRoute } from '@tanstack/react-router';
import { ReportingPage } from '../../features/reporting/board/components/ReportingPage.js';
import {
  reportingSearch,
  type ReportingSearch,
} from '../../features/reporting/board/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** Reporting (super admin): the cluster, the growers' search and page in the URL. */
export const Route = createFileRoute('/_app/reporting')({
  validateSearch: reportingSearch,
  beforeLoad: ({ context }) => guardRoute('reporting', context.user),
  component: function Reporting() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange<ReportingSearch>();
    return <ReportingPage search={search} onSearchChange={onSearchChange} />;
  },
});
