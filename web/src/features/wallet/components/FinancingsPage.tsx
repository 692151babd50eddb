import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { can } from '../../../shared/auth/permissions.js';
import { formatDate } from '../../../shared/format/date.js';
import type { Column } from '../../../shared/ui/DataTable.js';
import { ListPage } from '../../../shared/ui/ListPage.js';
import { listQuery } from '../../../shared/search/list-search.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';
import { financingsQuery } from '../api/financing.js';
import { TRANSACTION_STATUSES, type TransactionListSearch } from '../model/search.js';
import { fullName, type Financing } from '../model/types.js';
import { FinancingModal } from './FinancingModal.js';
import { SignedAmount } from './SignedAmount.js';
import { WalletStatusBadge } from './WalletStatusBadge.js';

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
  const [open, setOpen] = useState(false);
  const list = useQuery({
    ...financingsQuery(me?.id ?? '', listQuery(search)),
    enabled: Boolean(me),
  });
  const canFund = can(me, 'wallet.fund');
  const columns: Column<Financing>[] = [
    { name: 'reference', title: t('columns.shortReference') },
    {
      name: 'aggregator',
      title: t('columns.aggregator'),
      transform: (f) => fullName(f.aggregator) || '—',
    },
    {
      name: 'amount',
      title: t('columns.amountFcfa'),
      // Given (SENT) is money out of the wallet, received money in.
      transform: (f) => (
        <SignedAmount
          amount={f.amount}
          direction={f.direction === 'SENT' ? 'OUT' : f.direction === 'RECEIVED' ? 'IN' : null}
        />
      ),
    },
    { name: 'createdAt', title: t('columns.date'), transform: (f) => formatDate(f.createdAt) },
    {
      name: 'status',
      title: t('columns.status'),
      transform: (f) => <WalletStatusBadge status={f.status} labels="financingStatuses" />,
    },
  ];
  return (
    <ListPage
      title={t('financings.title')}
      action={
        canFund && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setOpen(true)}>
            {t('financings.new')}
          </Button>
        )
      }
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('searchPlaceholder')}
      statuses={{ values: TRANSACTION_STATUSES, label: (s) => t(`financingStatuses.${s}`) }}
      columns={columns}
      list={list}
    >
      {me && canFund && (
        <FinancingModal opened={open} onClose={() => setOpen(false)} myId={me.id} />
      )}
    </ListPage>
  );
}
