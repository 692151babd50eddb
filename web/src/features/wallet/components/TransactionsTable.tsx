import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/format/date.js';
import type { Column } from '../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../shared/ui/ListPage.js';
import { listQuery } from '../../../shared/search/list-search.js';
import { transactionsQuery } from '../api/transactions.js';
import { TRANSACTION_STATUSES, type TransactionListSearch } from '../model/search.js';
import { fullName, type Direction, type Transaction } from '../model/types.js';
import { SignedAmount } from './SignedAmount.js';
import { WalletStatusBadge } from './WalletStatusBadge.js';

/**
 * The transaction table: search, status filter, pagination of 10, 'Voir détails'; amounts
 * signed by direction (in or out), dates with their time. `withBeneficiary` adds the
 * beneficiary column ('Paiements effectués'); `direction` keeps only the rows of one
 * direction (the server filters: 'Paiements effectués' lists what the user paid, OUT).
 */
export function TransactionsTable({
  search,
  onSearchChange,
  withBeneficiary,
  direction,
  actions,
  caption,
}: {
  search: TransactionListSearch;
  onSearchChange: (next: Partial<TransactionListSearch>) => void;
  withBeneficiary?: boolean;
  direction?: Direction;
  actions?: ReactNode;
  caption: string;
}) {
  const { t } = useTranslation('wallet');
  const list = useQuery(transactionsQuery(listQuery(search), direction));
  const columns: Column<Transaction>[] = [
    { name: 'reference', title: t('columns.reference') },
    ...(withBeneficiary
      ? [
          {
            name: 'beneficiary',
            title: t('columns.beneficiary'),
            // The beneficiary's name, and its NIP when it has one; a withdrawal's account.
            transform: (tx: Transaction) => {
              const user = tx.destination?.user;
              return (
                <>
                  {fullName(user) || tx.destination?.payout || '—'}
                  {user?.nip && (
                    <Text size="xs" c="dark.5" data-testid="beneficiary-nip">
                      {t('detail.nip')} {user.nip}
                    </Text>
                  )}
                </>
              );
            },
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
      transform: (tx) => <SignedAmount amount={tx.amount} direction={tx.direction} />,
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
    <ListPanel
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('searchPlaceholder')}
      statuses={{ values: TRANSACTION_STATUSES, label: (s) => t(`statuses.${s}`) }}
      columns={columns}
      list={list}
      caption={caption}
      actions={actions}
    />
  );
}
