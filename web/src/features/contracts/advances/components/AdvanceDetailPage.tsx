import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatNumber } from '../../../../shared/format/money.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';
import { DataTable, type Column } from '../../../../shared/ui/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { PaginationBar } from '../../../../shared/ui/PaginationBar.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { recoveriesQuery, type Recovery } from '../api/advances.js';

/**
 * An advance's page (sousContratsAvancesAnanas for a pineapple advance): the grower, the
 * amount advanced, recovered and still owed, and the delivery contracts that recovered it
 * (each opens its detail), pages of 10.
 */
export function AdvanceDetailPage({
  advanceId,
  page,
  onPageChange,
}: {
  advanceId: string;
  page: number;
  onPageChange: (page: number) => void;
}) {
  const { t } = useTranslation('contractBatches');
  const errorText = useErrorText();
  const router = useRouter();
  const detail = useQuery(recoveriesQuery(advanceId, page));
  const advance = detail.data?.advance;
  const columns: Column<Recovery & { id: string }>[] = [
    {
      name: 'reference',
      title: t('advances.recoveries.contract'),
      transform: (r) =>
        r.reference ? (
          <Link to="/contrats/livraison/show/$id" params={{ id: r.contractId }}>
            {r.reference}
          </Link>
        ) : (
          r.contractId
        ),
    },
    {
      name: 'amount',
      title: t('advances.recoveries.amount'),
      transform: (r) => formatNumber(r.amount),
    },
    {
      name: 'recoveredAt',
      title: t('advances.recoveries.date'),
      transform: (r) => formatDate(r.recoveredAt),
    },
  ];
  const title = advance
    ? t('advances.detailTitle', { reference: advance.reference })
    : t('advances.detailLoading');
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{title}</PageTitle>
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          onClick={() => router.history.back()}
        >
          {t('advances.back')}
        </Button>
      </Group>
      {detail.isError && (
        <Alert color="red" role="alert">
          {errorText(detail.error)}
        </Alert>
      )}
      {advance && (
        <Paper withBorder p="md" radius="md">
          <SimpleGrid cols={{ base: 1, sm: 5 }}>
            <Figure
              label={t('advances.columns.grower')}
              value={`${advance.rightSide.lastname} ${advance.rightSide.firstname} (${advance.growerReference})`}
            />
            <Figure
              label={t('advances.columns.amount')}
              value={formatNumber(advance.meta.amount)}
            />
            <Figure
              label={t('advances.columns.recovered')}
              value={formatNumber(advance.meta.recovered)}
            />
            <Figure
              label={t('advances.columns.remaining')}
              value={formatNumber(advance.meta.remaining)}
            />
            <div>
              <Text size="sm" c="dark.5">
                {t('advances.columns.status')}
              </Text>
              <StatusBadge
                kind={advance.status === 'REPAID' ? 'success' : 'warning'}
                label={t(`advances.statuses.${advance.status}`)}
              />
            </div>
          </SimpleGrid>
        </Paper>
      )}
      <Paper withBorder p="md" radius="md">
        <Text fw={600} mb="sm">
          {t('advances.recoveries.title')}
        </Text>
        <DataTable
          columns={columns}
          rows={detail.data?.data.map((r) => ({ ...r, id: r.contractId }))}
          loading={detail.isLoading}
          caption={t('advances.recoveries.title')}
        />
        <PaginationBar
          page={page}
          total={detail.data?.count ?? 0}
          perPage={PAGE_SIZE}
          onChange={onPageChange}
        />
      </Paper>
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" c="dark.5">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}
