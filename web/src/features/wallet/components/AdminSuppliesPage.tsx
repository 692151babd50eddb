import { Button, Paper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/format/date.js';
import { formatNumber } from '../../../shared/format/money.js';
import { DataTable, type Column } from '../../../shared/ui/DataTable.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { PaginationBar } from '../../../shared/ui/PaginationBar.js';
import { bankSuppliesQuery, SUPPLY_BANKS } from '../api/supplies.js';
import {
  PAGE_SIZE,
  SUPPLY_STATUSES,
  type AdminSupplySearch,
  type SupplyStatus,
} from '../model/search.js';
import type { Supply } from '../model/types.js';
import { ListToolbar } from './ListToolbar.js';
import { WalletStatusBadge } from './WalletStatusBadge.js';
import { StatusFilter } from './StatusFilter.js';
import { ValidateSupplyModal } from './ValidateSupplyModal.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';

const VALIDATABLE = ['INIT', 'PENDING'];

/** Super admin: bank supplies; 'Valider' only for INIT or PENDING. */
export function AdminSuppliesPage({
  search,
  onSearchChange,
}: {
  search: AdminSupplySearch;
  onSearchChange: (next: Partial<AdminSupplySearch>) => void;
}) {
  const { t } = useTranslation('wallet');
  useRealtime();
  const page = search.page ?? 1;
  const list = useQuery(bankSuppliesQuery({ page, q: search.q, status: search.status }));
  const [validating, setValidating] = useState<Supply | null>(null);
  const columns: Column<Supply>[] = [
    { name: 'reference', title: t('columns.reference') },
    // Spec: always the same bank label.
    { name: 'bank', title: t('columns.bank'), transform: () => SUPPLY_BANKS[0] ?? '—' },
    { name: 'amount', title: t('columns.amountFcfa'), transform: (s) => formatNumber(s.amount) },
    { name: 'createdAt', title: t('columns.date'), transform: (s) => formatDate(s.createdAt) },
    {
      name: 'status',
      title: t('columns.status'),
      transform: (s) => <WalletStatusBadge status={s.status} />,
    },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (s) =>
        VALIDATABLE.includes(s.status) ? (
          <Button
            size="compact-sm"
            onClick={() => setValidating(s)}
            aria-label={t('adminSupplies.validateOf', { reference: s.reference })}
          >
            {t('adminSupplies.validate')}
          </Button>
        ) : null,
    },
  ];
  return (
    <>
      <PageTitle>{t('adminSupplies.title')}</PageTitle>
      <Paper withBorder p="md" radius="md">
        <ListToolbar
          q={search.q}
          placeholder={t('searchPlaceholder')}
          onSearch={(q) => onSearchChange({ q, page: undefined })}
        >
          <StatusFilter<SupplyStatus>
            statuses={SUPPLY_STATUSES}
            value={search.status}
            onChange={(status) => onSearchChange({ status, page: undefined })}
          />
        </ListToolbar>
        <DataTable
          columns={columns}
          rows={list.data?.data}
          loading={list.isLoading}
          caption={t('adminSupplies.title')}
        />
        <PaginationBar
          page={page}
          total={list.data?.count ?? 0}
          perPage={PAGE_SIZE}
          onChange={(p) => onSearchChange({ page: p })}
        />
      </Paper>
      <ValidateSupplyModal supply={validating} onClose={() => setValidating(null)} />
    </>
  );
}
