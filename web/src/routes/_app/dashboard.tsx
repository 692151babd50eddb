import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../features/reporting/dashboard/components/DashboardPage.js';
import {
  dashboardSearch,
  type DashboardSearch,
} from '../../features/reporting/dashboard/model/presets.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';

/**
 * tableauBord: where sign-in lands, for every role. The period (a preset or two days), the
 * admins' cluster and the contracts' tab are in the URL. The seasons' screens under
 * /dashboard/industriel/… are not children of this route (`dashboard_.` files).
 */
export const Route = createFileRoute('/_app/dashboard')({
  validateSearch: dashboardSearch,
  component: function Dashboard() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange<DashboardSearch>();
    return <DashboardPage search={search} onSearchChange={onSearchChange} />;
  },
});
