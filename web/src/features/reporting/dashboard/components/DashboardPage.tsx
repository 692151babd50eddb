import { Alert, Anchor, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { SummaryCard as ReconciliationCard } from '../../../reconciliation/components/ReconciliationPage.js';
import { clustersQuery } from '../../../identity/api/users.js';
import {
  contractsStatsQuery,
  personalDashboardQuery,
  type AnsweredRange,
} from '../api/dashboard.js';
import { formatToday, searchDays, type DashboardSearch } from '../model/presets.js';
import { dashboardKind, picksCluster } from '../model/scope.js';
import { ContractsFigures, PersonalFigures } from './Figures.js';
import { RangePicker } from './RangePicker.js';

export interface DashboardPageProps {
  search: DashboardSearch;
  onSearchChange: (next: Partial<DashboardSearch>) => void;
}

/**
 * tableauBord (spec platform-and-wallet §2 "Dashboard"): today's date, the date range
 * (presets in the URL), then the figures of the user's reach: the contracts' cards, tabs,
 * producers' debts and the two monthly charts for the aggregator, the cluster manager and the
 * admins (the admins pick a cluster), the personal figures for a grower, a cooperative and an
 * SFD. Pushed `reporting.dashboard` refreshes them (shared/realtime/invalidations.ts).
 */
export function DashboardPage({ search, onSearchChange }: DashboardPageProps) {
  const { t, i18n } = useTranslation('dashboard');
  const errorText = useErrorText();
  const user = useCurrentUser();
  const role = user?.role?.code;
  const kind = dashboardKind(role);
  const days = searchDays(search);
  const clusterId = picksCluster(role) ? search.clusterId : undefined;
  const stats = useQuery({
    ...contractsStatsQuery({ ...days, clusterId }),
    enabled: Boolean(user) && kind === 'contracts',
  });
  const personal = useQuery({
    ...personalDashboardQuery(days),
    enabled: Boolean(user) && kind === 'personal',
  });
  const current = kind === 'contracts' ? stats : personal;
  const answered: AnsweredRange | undefined = current.data?.range;
  return (
    <Stack gap="lg">
      <div>
        <PageTitle>{t('title')}</PageTitle>
        <Text c="dark.5" mt={-12} data-testid="dashboard-today">
          {t('today', { date: formatToday(i18n.language) })}
        </Text>
      </div>
      {role === ROLES.SUPER_ADMIN && <ReconciliationCard />}
      {kind === 'none' ? (
        <Alert color="gray" title={t('none.title')}>
          <Text size="sm">{t('none.text')}</Text>
          <Anchor component={Link} to="/wallet" size="sm">
            {t('none.wallet')}
          </Anchor>
        </Alert>
      ) : (
        <>
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <RangePicker search={search} onSearchChange={onSearchChange} answered={answered} />
            {picksCluster(role) && (
              <ClusterPicker
                value={search.clusterId}
                onChange={(id) => onSearchChange({ clusterId: id })}
              />
            )}
          </Group>
          {current.isError && (
            <Alert color="red" role="alert" title={t('error')}>
              {errorText(current.error)}
            </Alert>
          )}
          {kind === 'contracts' ? (
            <ContractsFigures
              stats={stats.data}
              loading={stats.isLoading}
              tab={search.tab ?? 'delivery'}
              onTabChange={(tab) => onSearchChange({ tab })}
            />
          ) : (
            <PersonalFigures
              data={personal.data}
              loading={personal.isLoading}
              sfd={role === ROLES.SFD}
            />
          )}
        </>
      )}
    </Stack>
  );
}

/** 'Cluster': 'Tout' (every cluster) or one of them. */
function ClusterPicker({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (clusterId: string | undefined) => void;
}) {
  const { t } = useTranslation('dashboard');
  const clusters = useQuery(clustersQuery);
  const all = '__all__';
  return (
    <Select
      label={t('cluster')}
      w={240}
      allowDeselect={false}
      data={[
        { value: all, label: t('allClusters') },
        ...(clusters.data?.data ?? []).map((c) => ({ value: c.id, label: c.label })),
      ]}
      value={value ?? all}
      onChange={(v) => onChange(!v || v === all ? undefined : v)}
    />
  );
}
