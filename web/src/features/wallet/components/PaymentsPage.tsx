import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import type { TransactionListSearch } from '../model/search.js';
import { TransactionsTable } from './TransactionsTable.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';

/**
 * 'Paiements effectués': the payments the user made (transfers, financings, contract
 * payments, withdrawals: the OUT rows, filtered by the server) with their beneficiary.
 */
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
        direction="OUT"
        caption={t('payments.title')}
      />
    </>
  );
}
