import { ActionIcon, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
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
import { supplyContractsQuery, type SupplyContractRow } from '../api/input-supply.js';
import type { SupplySearch } from '../model/search.js';

/**
 * contratsFournituresIntrants (/contrats/fourniture): the input supply contracts — an
 * industrial's provider assignments of its seasons — reference, provider, fertilizer, quantity,
 * still to deliver, amount, date, status; searchable (reference, provider, fertilizer), pages of
 * 10. The aggregator sees its own; the super admin and an admin pick an aggregator.
 */
export function InputSupplyContractsPage({
  search,
  onSearchChange,
}: {
  search: SupplySearch;
  onSearchChange: (next: Partial<SupplySearch>) => void;
}) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const role = me?.role?.code;
  const seesAll = role === ROLES.SUPER_ADMIN || role === ROLES.ADMIN;
  const userId = seesAll ? search.aggregator : me?.id;
  const list = useQuery({
    ...supplyContractsQuery(userId ?? '', search),
    enabled: Boolean(userId),
  });
  const kg = (value: string | number) => t('supply.kg', { value: formatNumber(Number(value)) });
  const columns: Column<SupplyContractRow>[] = [
    { name: 'reference', title: t('supply.columns.reference') },
    {
      name: 'provider',
      title: t('supply.columns.provider'),
      transform: (r) => `${r.rightSide.lastname} ${r.rightSide.firstname}`,
    },
    {
      name: 'fertilizer',
      title: t('supply.columns.fertilizer'),
      transform: (r) => r.meta.fertilizer,
    },
    {
      name: 'quantity',
      title: t('supply.columns.quantity'),
      transform: (r) => kg(r.meta.quantity),
    },
    {
      name: 'remaining',
      title: t('supply.columns.remaining'),
      transform: (r) => kg(r.meta.remaining),
    },
    {
      name: 'amount',
      title: t('supply.columns.amount'),
      transform: (r) => formatNumber(r.meta.amount),
    },
    {
      name: 'createdAt',
      title: t('supply.columns.createdAt'),
      transform: (r) => formatDate(r.createdAt),
    },
    {
      name: 'status',
      title: t('supply.columns.status'),
      transform: (r) => (
        <StatusBadge
          kind={r.status === 'ACTIVE' ? 'success' : 'danger'}
          label={t(`supply.statuses.${r.status}`, { defaultValue: r.status })}
        />
      ),
    },
    {
      name: 'action',
      title: t('supply.columns.action'),
      transform: (r) => (
        <ActionIcon
          variant="subtle"
          renderRoot={(props) => (
            <Link {...props} to="/contrats/fourniture/$id" params={{ id: r.id }} />
          )}
          aria-label={t('supply.view', { reference: r.reference })}
        >
          <IconEye size={18} aria-hidden />
        </ActionIcon>
      ),
    },
  ];
  return (
    <ListPage<SupplyContractRow, never>
      title={t('supply.title')}
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('supply.search')}
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
            {t('supply.pickAggregator')}
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
