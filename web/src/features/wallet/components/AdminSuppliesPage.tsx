import { Button, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/format/date.js';
import { formatNumber } from '../../../shared/format/money.js';
import type { Column } from '../../../shared/ui/DataTable.js';
import { ListPage } from '../../../shared/ui/ListPage.js';
import { listQuery } from '../../../shared/search/list-search.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';
import { bankAccountQuery, bankSuppliesQuery } from '../api/supplies.js';
import { SUPPLY_STATUSES, type AdminSupplySearch } from '../model/search.js';
import type { SupplyRow } from '../model/supply-row.js';
import { RejectSupplyModal } from './RejectSupplyModal.js';
import { SupplyRequester } from './SupplyRequester.js';
import { SupplyStatusBadge } from './SupplyStatusBadge.js';
import { ValidateSupplyModal } from './ValidateSupplyModal.js';

const VALIDATABLE = ['INIT', 'PENDING'];

/**
 * Super admin: bank supplies with who asked (name, organisation: joined by the API from the
 * users at read time); 'Valider' or 'Rejeter' (with a reason) only for INIT or PENDING. A
 * supply created or changed anywhere reaches this open page by push (`supplies.updated` to
 * admins).
 */
export function AdminSuppliesPage({
  search,
  onSearchChange,
}: {
  search: AdminSupplySearch;
  onSearchChange: (next: Partial<AdminSupplySearch>) => void;
}) {
  const { t } = useTranslation('wallet');
  useRealtime();
  const list = useQuery(bankSuppliesQuery(listQuery(search)));
  const bank = useQuery(bankAccountQuery());
  const [validating, setValidating] = useState<SupplyRow | null>(null);
  const [rejecting, setRejecting] = useState<SupplyRow | null>(null);
  const columns: Column<SupplyRow>[] = [
    { name: 'reference', title: t('columns.reference') },
    {
      name: 'requester',
      title: t('adminSupplies.requester'),
      transform: (s) => <SupplyRequester supply={s} />,
    },
    // Spec: always the same bank label, the accepted bank's (from the API).
    { name: 'bank', title: t('columns.bank'), transform: () => bank.data?.bankName ?? '—' },
    { name: 'amount', title: t('columns.amountFcfa'), transform: (s) => formatNumber(s.amount) },
    { name: 'createdAt', title: t('columns.date'), transform: (s) => formatDate(s.createdAt) },
    {
      name: 'status',
      title: t('columns.status'),
      transform: (s) => <SupplyStatusBadge supply={s} />,
    },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (s) =>
        VALIDATABLE.includes(s.status) ? (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="compact-sm"
              onClick={() => setValidating(s)}
              aria-label={t('adminSupplies.validateOf', { reference: s.reference })}
            >
              {t('adminSupplies.validate')}
            </Button>
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              onClick={() => setRejecting(s)}
              aria-label={t('adminSupplies.rejectOf', { reference: s.reference })}
            >
              {t('adminSupplies.reject')}
            </Button>
          </Group>
        ) : null,
    },
  ];
  return (
    <ListPage
      title={t('adminSupplies.title')}
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('searchPlaceholder')}
      statuses={{ values: SUPPLY_STATUSES, label: (s) => t(`statuses.${s}`) }}
      columns={columns}
      list={list}
    >
      <ValidateSupplyModal supply={validating} onClose={() => setValidating(null)} />
      <RejectSupplyModal supply={rejecting} onClose={() => setRejecting(null)} />
    </ListPage>
  );
}
