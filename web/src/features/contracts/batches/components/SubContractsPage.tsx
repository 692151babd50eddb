import { ActionIcon, Button, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconArrowLeft, IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatDay } from '../model/format.js';
import { formatNumber } from '../../../../shared/format/money.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../../shared/ui/ListPage.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { subContractsQuery, type SubContractRow } from '../api/batches.js';
import {
  STATUS_KIND,
  SUB_FILTERS,
  type SubContractsSearch,
  type SubFilter,
} from '../model/search.js';

/**
 * sousContratsLivraisons (§2.5): a parent's sub-contracts, one per grower — searchable
 * (reference, grower), filters all / waiting / ready / executed / out of time, pages of 10;
 * each opens the delivery contract's detail (confirm, delivery, run).
 */
export function SubContractsPage({
  parentId,
  search,
  onSearchChange,
}: {
  parentId: string;
  search: SubContractsSearch;
  onSearchChange: (next: Partial<SubContractsSearch>) => void;
}) {
  const { t } = useTranslation('contractBatches');
  const errorText = useErrorText();
  const list = useQuery(subContractsQuery(parentId, search.page ?? 1, search.q, search.status));
  const parent = list.data?.parent;
  const columns: Column<SubContractRow>[] = [
    { name: 'reference', title: t('subs.columns.reference') },
    {
      name: 'grower',
      title: t('subs.columns.grower'),
      transform: (r) => `${r.rightSide.lastname} ${r.rightSide.firstname} (${r.growerReference})`,
    },
    { name: 'plotName', title: t('subs.columns.plot') },
    { name: 'quantity', title: t('subs.columns.quantity'), transform: (r) => r.meta.quantity },
    {
      name: 'amount',
      title: t('subs.columns.amount'),
      transform: (r) => formatNumber(r.meta.amount),
    },
    {
      name: 'deliveryDate',
      title: t('subs.columns.deliveryDate'),
      transform: (r) => formatDay(r.deliveryDate),
    },
    {
      name: 'status',
      title: t('subs.columns.status'),
      transform: (r) => (
        <StatusBadge
          kind={STATUS_KIND[r.status as keyof typeof STATUS_KIND] ?? 'success'}
          label={t(`statuses.${r.status}`, { defaultValue: r.status })}
        />
      ),
    },
    {
      name: 'action',
      title: t('subs.columns.action'),
      transform: (r) => (
        <ActionIcon
          variant="subtle"
          renderRoot={(props) => (
            <Link {...props} to="/contrats/livraison/show/$id" params={{ id: r.id }} />
          )}
          aria-label={t('subs.view', { reference: r.reference })}
        >
          <IconEye size={18} aria-hidden />
        </ActionIcon>
      ),
    },
  ];
  const title = parent ? t('subs.title', { reference: parent.reference }) : t('subs.titleLoading');
  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{title}</PageTitle>
        <Button
          variant="default"
          component={Link}
          to="/contrats/lots"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
        >
          {t('subs.back')}
        </Button>
      </Group>
      {parent && (
        <Paper withBorder p="md" radius="md" mb="md">
          <SimpleGrid cols={{ base: 1, sm: 4 }}>
            <Figure label={t('subs.figures.count')} value={String(parent.subContracts)} />
            <Figure label={t('subs.figures.quantity')} value={parent.quantity} />
            <Figure label={t('subs.figures.amount')} value={formatNumber(parent.amount)} />
            <Figure label={t('subs.figures.createdAt')} value={formatDate(parent.createdAt)} />
          </SimpleGrid>
        </Paper>
      )}
      {list.isError && (
        <Text c="red.8" role="alert" mb="sm">
          {errorText(list.error)}
        </Text>
      )}
      <ListPanel<SubContractRow, SubFilter>
        search={search}
        onSearchChange={onSearchChange}
        searchPlaceholder={t('subs.search')}
        statuses={{ values: SUB_FILTERS, label: (f) => t(`filters.${f}`) }}
        columns={columns}
        list={list}
        caption={title}
      />
    </>
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
