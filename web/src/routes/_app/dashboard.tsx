import { createFileRoute } from '@tanstack/react-router';
import {
  contractsStatsQuery,
  personalDashboardQuery,
} from '../../features/reporting/dashboard/api/dashboard.js';
import { DashboardPage } from '../../features/reporting/dashboard/components/DashboardPage.js';
import {
  dashboardSearch,
  searchDays,
  type DashboardSearch,
} from '../../features/reporting/dashboard/model/presets.js';
import { dashboardKind, picksCluster } from '../../features/reporting/dashboard/model/scope.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';

/**
 * tableauBord: where sign-in lands, for every role. The period (a preset or two days), the
 * admins' cluster and the contracts' tab are in the URL. The seasons' screens under
 * /dashboard/industriel/… are not children of this route (`dashboard_.` files).
 *
 * The loader asks for the figures as soon as the user is known, while the screen's code loads
 * and renders (it does not wait for them: the cards show their loading state).
 */
export const Route = createFileRoute('/_app/dashboard')({
  validateSearch: dashboardSearch,
  loaderDeps: ({ search }) => ({ search }),
  loader: ({ context: { queryClient, user }, deps: { search } }) => {
    const role = user?.role?.code;
    const days = searchDays(search);
    const kind = dashboardKind(role);
    const clusterId = picksCluster(role) ? search.clusterId : undefined;
    if (kind === 'contracts')
      void queryClient.prefetchQuery(contractsStatsQuery({ ...days, clusterId }));
    if (kind === 'personal') void queryClient.prefetchQuery(personalDashboardQuery(days));
  },
  component: function Dashboard() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange<DashboardSearch>();
    return <DashboardPage search={search} onSearchChange={onSearchChange} />;
  },
});
