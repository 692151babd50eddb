import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import type { PayoutAccount } from '../model/types.js';

/** An account on one or two lines: mobile money number, bank and account number. */
export function AccountSummary({ account }: { account: PayoutAccount }) {
  const { t } = useTranslation('payout');
  const momo = toLocalPhone(account.momoAccountNumber);
  return (
    <div>
      <Text size="sm">
        {t('account.momo')} : {momo || t('account.none')}
      </Text>
      <Text size="sm" c="dark.5">
        {account.bankName && account.bankAccountNumber
          ? `${account.bankName} · ${account.bankAccountNumber}`
          : t('account.noBank')}
      </Text>
    </div>
  );
}
