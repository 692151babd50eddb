import { Anchor, Paper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/format/date.js';
import { formatNumber } from '../../../shared/format/money.js';
import { DataTable, type Column } from '../../../shared/ui/DataTable.js';
import { PaginationBar } from '../../../shared/ui/PaginationBar.js';
import { transactionsQuery } from '../api/transactions.js';
import {
  PAGE_SIZE,
  TRANSACTION_STATUSES,
  type TransactionListSearch,
  type TransactionStatus,
} from '../model/search.js';
import { fullName, type Transaction } from '../model/types.js';
import { ListToolbar } from './ListToolbar.js';
import { StatusFilter } from './StatusFilter.js';
import { WalletStatusBadge } from './WalletStatusBadge.js';

/**
 * The transaction table: search, status filter, pagination of 10, 'Voir détails'.
 * `withBeneficiary` adds the beneficiary column ('Paiements effectués').
 */
export function TransactionsTable({
  search,
  onSearchChange,
  withBeneficiary,
  actions,
  caption,
}: {
  search: TransactionListSearch;
  onSearchChange: (next: Partial<TransactionListSearch>) => void;
  withBeneficiary?: boolean;
  actions?: ReactNode;
  caption: string;
}) {
  const { t } = useTranslation('wallet');
  const page = search.page ?? 1;
  const list = useQuery(transactionsQuery({ page, q: search.q, status: search.status }));
  const columns: Column<Transaction>[] = [
    { name: 'reference', title: t('columns.reference') },
    ...(withBeneficiary
      ? [
          {
            name: 'beneficiary',
            title: t('columns.beneficiary'),
            transform: (tx: Transaction) => fullName(tx.destination?.user) || '—',
          },
        ]
      : []),
    {
      name: 'operationType',
      title: t('columns.type'),
      transform: (tx) =>
        t(`operationTypes.${tx.operationType}`, { defaultValue: tx.operationType }),
    },
    {
      name: 'amount',
      title: t('columns.amountFcfa'),
      transform: (tx) => formatNumber(tx.amount),
    },
    { name: 'createdAt', title: t('columns.date'), transform: (tx) => formatDate(tx.createdAt) },
    {
      name: 'status',
      title: t('columns.status'),
      transform: (tx) => <WalletStatusBadge status={tx.status} />,
    },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (tx) => (
        <Anchor
          size="sm"
          aria-label={t('seeDetailsOf', { reference: tx.reference })}
          renderRoot={(props) => (
            <Link {...props} to="/paiements-effectues/$id/show" params={{ id: tx.id }} />
          )}
        >
          {t('seeDetails')}
        </Anchor>
      ),
    },
  ];
  return (
    <Paper withBorder p="md" radius="md">
      <ListToolbar
        q={search.q}
        placeholder={t('searchPlaceholder')}
        onSearch={(q) => onSearchChange({ q, page: undefined })}
      >
        <StatusFilter<TransactionStatus>
          statuses={TRANSACTION_STATUSES}
          value={search.status}
          onChange={(status) => onSearchChange({ status, page: undefined })}
        />
        {actions}
      </ListToolbar>
      <DataTable
        columns={columns}
        rows={list.data?.data}
        loading={list.isLoading}
        caption={caption}
      />
      <PaginationBar
        page={page}
        total={list.data?.count ?? 0}
        perPage={PAGE_SIZE}
        onChange={(p) => onSearchChange({ page: p })}
      />
    </Paper>
  );
}
