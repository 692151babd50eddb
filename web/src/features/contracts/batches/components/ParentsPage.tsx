import { ActionIcon, Button, Text } from '@mantine/core';
import { IconEye, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatNumber } from '../../../../shared/format/money.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { AggregatorFilter } from '../../delivery/components/AggregatorFilter.js';
import { parentsQuery, type ParentRow } from '../api/batches.js';
import { STATUS_KIND, type ParentsSearch } from '../model/search.js';

/**
 * The aggregator's parent contracts (LIVRAISON_PARENT): reference, source, how many
 * sub-contracts and how many are waiting / ready / delivered / paid, quantity and amount;
 * searchable (reference, file name), pages of 10; a parent opens its sub-contracts.
 */
export function ParentsPage({
  search,
  onSearchChange,
}: {
  search: ParentsSearch;
  onSearchChange: (next: Partial<ParentsSearch>) => void;
}) {
  const { t } = useTranslation('contractBatches');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const role = me?.role?.code;
  // The super admin and an admin pick the aggregator whose parent contracts they read.
  const seesAll = role === ROLES.SUPER_ADMIN || role === ROLES.ADMIN;
  const owner = seesAll ? search.aggregator : me?.id;
  const list = useQuery({
    ...parentsQuery(owner ?? '', search.page ?? 1, search.q),
    enabled: Boolean(owner),
  });
  const columns: Column<ParentRow>[] = [
    { name: 'reference', title: t('parents.columns.reference') },
    {
      name: 'source',
      title: t('parents.columns.source'),
      transform: (r) => r.fileName ?? t(`parents.sources.${r.source}`, { defaultValue: r.source }),
    },
    {
      name: 'subContracts',
      title: t('parents.columns.subContracts'),
      transform: (r) =>
        t('parents.progress', {
          count: r.subContracts,
          completed: r.byStatus.COMPLETED ?? 0,
        }),
    },
    { name: 'quantity', title: t('parents.columns.quantity'), transform: (r) => r.meta.quantity },
    {
      name: 'amount',
      title: t('parents.columns.amount'),
      transform: (r) => formatNumber(r.meta.amount),
    },
    {
      name: 'createdAt',
      title: t('parents.columns.createdAt'),
      transform: (r) => formatDate(r.createdAt),
    },
    {
      name: 'status',
      title: t('parents.columns.status'),
      transform: (r) => (
        <StatusBadge
          kind={STATUS_KIND[r.status as keyof typeof STATUS_KIND] ?? 'success'}
          label={t(`statuses.${r.status}`, { defaultValue: r.status })}
        />
      ),
    },
    {
      name: 'action',
      title: t('parents.columns.action'),
      transform: (r) => (
        <ActionIcon
          variant="subtle"
          renderRoot={(props) => <Link {...props} to="/contrats/lots/$id" params={{ id: r.id }} />}
          aria-label={t('parents.view', { reference: r.reference })}
        >
          <IconEye size={18} aria-hidden />
        </ActionIcon>
      ),
    },
  ];
  return (
    <ListPage<ParentRow, string>
      title={t('parents.title')}
      action={
        role === ROLES.INDUSTRIAL && (
          <Button
            component={Link}
            to="/contrats/lots/create"
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('parents.add')}
          </Button>
        )
      }
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('parents.search')}
      filters={
        seesAll && (
          <AggregatorFilter
            value={search.aggregator}
            onChange={(aggregator) => onSearchChange({ aggregator, page: undefined })}
          />
        )
      }
      columns={columns}
      list={list}
      header={
        seesAll && !search.aggregator ? (
          <Text c="dimmed" mb="sm">
            {t('contracts:pickAggregatorList')}
          </Text>
        ) : null
      }
    >
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
    </ListPage>
  );
}
