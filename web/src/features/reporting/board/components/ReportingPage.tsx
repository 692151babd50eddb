import { Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { formatMoney, formatNumber } from '../../../../shared/format/money.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { DownloadButton } from '../../../../shared/ui/DownloadButton.js';
import { ListPanel } from '../../../../shared/ui/ListPage.js';
import { notify } from '../../../../shared/ui/notify.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { clustersQuery } from '../../../identity/api/users.js';
import { StatCard } from '../../dashboard/components/StatCard.js';
import {
  downloadGrowersReport,
  growersStatsQuery,
  transactionsStatsQuery,
  type GrowerStatsRow,
} from '../api/board.js';
import type { ReportingSearch } from '../model/search.js';

const ALL = '__all__';

/** Hectares as entered (up to 4 decimals), French decimal comma: '12,5'. */
function formatHectares(value: number, lang: string): string {
  return new Intl.NumberFormat(lang === 'en' ? 'en-US' : 'fr-FR', { maximumFractionDigits: 4 })
    .format(value)
    .replace(/\u202f|\u00a0/g, ' ');
}

/**
 * Reporting (spec actors-contracts-admin §2.8, super admin): the cluster selector ('Tout' and
 * every cluster), three grower cards, six transaction cards, the growers table (Nom, Prénoms,
 * Téléphone, Superficie emblavée (ha)) with search and pages of 10, and 'Télécharger' (.xlsx).
 * The cluster, search and page are in the URL; the `reporting.board` push refreshes it.
 */
export function ReportingPage({
  search,
  onSearchChange,
}: {
  search: ReportingSearch;
  onSearchChange: (next: Partial<ReportingSearch>) => void;
}) {
  const { t, i18n } = useTranslation('reporting');
  const errorText = useErrorText();
  const clusterId = search.clusterId;
  const clusters = useQuery(clustersQuery);
  const growers = useQuery(growersStatsQuery({ clusterId, page: search.page ?? 1, q: search.q }));
  const transactions = useQuery(transactionsStatsQuery(clusterId));
  const cards = growers.data?.cards;
  const tx = transactions.data;
  const n = (v: number | undefined) => (v === undefined ? null : formatNumber(v));
  const money = (v: number | undefined) => (v === undefined ? null : formatMoney(v));
  const rows = growers.data
    ? { ...growers.data, data: growers.data.data.map((row) => ({ ...row, id: row.growerId })) }
    : undefined;
  const columns: Column<GrowerStatsRow & { id: string }>[] = [
    { name: 'lastname', title: t('columns.lastname') },
    { name: 'firstname', title: t('columns.firstname') },
    { name: 'phone', title: t('columns.phone'), transform: (r) => toLocalPhone(r.phone) },
    {
      name: 'areaSown',
      title: t('columns.areaSown'),
      transform: (r) => formatHectares(r.areaSown, i18n.language),
    },
  ];
  const txCards = [
    { name: 'countDebit', value: n(tx?.countDebit) },
    { name: 'totalDebit', value: money(tx?.totalDebit) },
    { name: 'countSupplies', value: n(tx?.countSupplies) },
    { name: 'totalSupplies', value: money(tx?.totalSupplies) },
    { name: 'countTransfer', value: n(tx?.countTransfer) },
    { name: 'totalTransfer', value: money(tx?.totalTransfer) },
  ];
  return (
    <Stack gap="lg">
      <PageTitle>{t('title')}</PageTitle>
      <Select
        label={t('cluster')}
        w={260}
        allowDeselect={false}
        data={[
          { value: ALL, label: t('all') },
          ...(clusters.data?.data ?? []).map((c) => ({ value: c.id, label: c.label })),
        ]}
        value={clusterId ?? ALL}
        onChange={(v) =>
          onSearchChange({ clusterId: !v || v === ALL ? undefined : v, page: undefined })
        }
      />
      {(growers.isError || transactions.isError) && (
        <Text c="red.8" role="alert">
          {errorText(growers.error ?? transactions.error)}
        </Text>
      )}
      <Stack gap="sm" component="section" aria-label={t('sections.growers')}>
        <Title order={2} size="h4">
          {t('sections.growers')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <StatCard
            name="growers"
            label={t('cards.growers')}
            value={n(cards?.growers)}
            loading={growers.isLoading}
          />
          <StatCard
            name="plots"
            label={t('cards.plots')}
            value={n(cards?.plots)}
            loading={growers.isLoading}
          />
          <StatCard
            name="areaSown"
            label={t('cards.areaSown')}
            value={cards ? `${formatHectares(cards.areaSown, i18n.language)} ha` : null}
            loading={growers.isLoading}
          />
        </SimpleGrid>
      </Stack>
      <Stack gap="sm" component="section" aria-label={t('sections.transactions')}>
        <Title order={2} size="h4">
          {t('sections.transactions')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {txCards.map((c) => (
            <StatCard
              key={c.name}
              name={c.name}
              label={t(`cards.${c.name}`)}
              value={c.value}
              loading={transactions.isLoading}
            />
          ))}
        </SimpleGrid>
      </Stack>
      <Stack gap="sm" component="section" aria-label={t('sections.table')}>
        <Title order={2} size="h4">
          {t('sections.table')}
        </Title>
        <ListPanel
          search={search}
          onSearchChange={onSearchChange}
          searchPlaceholder={t('searchPlaceholder')}
          actions={
            <DownloadButton
              disabled={growers.data?.count === 0}
              onDownload={async () => {
                try {
                  await downloadGrowersReport(clusterId);
                } catch (error) {
                  notify('error', errorText(error));
                }
              }}
            />
          }
          columns={columns}
          list={{ data: rows, isLoading: growers.isLoading }}
          caption={t('sections.table')}
        />
      </Stack>
    </Stack>
  );
}
