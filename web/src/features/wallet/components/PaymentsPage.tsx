import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import type { TransactionListSearch } from '../model/search.js';
import { TransactionsTable } from './TransactionsTable.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';

/** 'Paiements effectués': the user's transactions with their beneficiary. */
export function PaymentsPage({
  search,
  onSearchChange,
}: {
  search: TransactionListSearch;
  onSearchChange: (next: Partial<TransactionListSearch>) => void;
}) {
  const { t } = useTranslation('wallet');
  useRealtime();
  return (
    <>
      <PageTitle>{t('payments.title')}</PageTitle>
      <TransactionsTable
        search={search}
        onSearchChange={onSearchChange}
        withBeneficiary
        caption={t('payments.title')}
      />
    </>
  );
}
