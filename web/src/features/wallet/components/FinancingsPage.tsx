import { Button, Group, Paper } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { ROLES } from '../../../shared/auth/roles.js';
import { formatDate } from '../../../shared/format/date.js';
import { formatNumber } from '../../../shared/format/money.js';
import { DataTable, type Column } from '../../../shared/ui/DataTable.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { PaginationBar } from '../../../shared/ui/PaginationBar.js';
import { financingsQuery } from '../api/financing.js';
import {
  PAGE_SIZE,
  TRANSACTION_STATUSES,
  type TransactionListSearch,
  type TransactionStatus,
} from '../model/search.js';
import { fullName, type Financing } from '../model/types.js';
import { FinancingModal } from './FinancingModal.js';
import { ListToolbar } from './ListToolbar.js';
import { StatusFilter } from './StatusFilter.js';
import { WalletStatusBadge } from './WalletStatusBadge.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';

/** 'Financements': list and 'Financer un agrégateur' (hidden for SFD). */
export function FinancingsPage({
  search,
  onSearchChange,
}: {
  search: TransactionListSearch;
  onSearchChange: (next: Partial<TransactionListSearch>) => void;
}) {
  const { t } = useTranslation('wallet');
  useRealtime();
  const me = useCurrentUser();
  const page = search.page ?? 1;
  const [open, setOpen] = useState(false);
  const list = useQuery({
    ...financingsQuery(me?.id ?? '', { page, q: search.q, status: search.status }),
    enabled: Boolean(me),
  });
  const canFund = me?.role?.code !== ROLES.SFD;
  const columns: Column<Financing>[] = [
    { name: 'reference', title: t('columns.shortReference') },
    {
      name: 'aggregator',
      title: t('columns.aggregator'),
      transform: (f) => fullName(f.aggregator) || '—',
    },
    { name: 'amount', title: t('columns.amountFcfa'), transform: (f) => formatNumber(f.amount) },
    { name: 'createdAt', title: t('columns.date'), transform: (f) => formatDate(f.createdAt) },
    {
      name: 'status',
      title: t('columns.status'),
      transform: (f) => <WalletStatusBadge status={f.status} labels="financingStatuses" />,
    },
  ];
  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('financings.title')}</PageTitle>
        {canFund && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setOpen(true)}>
            {t('financings.new')}
          </Button>
        )}
      </Group>
      <Paper withBorder p="md" radius="md">
        <ListToolbar
          q={search.q}
          placeholder={t('searchPlaceholder')}
          onSearch={(q) => onSearchChange({ q, page: undefined })}
        >
          <StatusFilter<TransactionStatus>
            statuses={TRANSACTION_STATUSES}
            value={search.status}
            labels="financingStatuses"
            onChange={(status) => onSearchChange({ status, page: undefined })}
          />
        </ListToolbar>
        <DataTable
          columns={columns}
          rows={list.data?.data}
          loading={list.isLoading}
          caption={t('financings.title')}
        />
        <PaginationBar
          page={page}
          total={list.data?.count ?? 0}
          perPage={PAGE_SIZE}
          onChange={(p) => onSearchChange({ page: p })}
        />
      </Paper>
      {me && canFund && (
        <FinancingModal opened={open} onClose={() => setOpen(false)} myId={me.id} />
      )}
    </>
  );
}
