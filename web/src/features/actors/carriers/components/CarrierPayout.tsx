import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { Field } from '../../cooperatives/components/CooperativePayout.js';
import type { Carrier } from '../api/carriers.js';

/** The carrier's payout accounts, read-only: a later change is a request a super admin approves. */
export function CarrierPayout({ carrier }: { carrier: Carrier }) {
  const { t } = useTranslation('carriers');
  const none = t('detail.none');
  const bank = [carrier.accountInfo.providerName, carrier.accountInfo.accountNumber]
    .filter(Boolean)
    .join(' ');
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field
          label={t('form.momoNumber')}
          value={toLocalPhone(carrier.momoInfo.momoNumber) || none}
        />
        <Field label={t('form.operatorLabel')} value={carrier.momoInfo.providerName ?? none} />
        <Field label={t('form.bankName')} value={bank || none} />
      </SimpleGrid>
      <Text size="sm" c="dark.4">
        {t('form.payoutReadOnly')}
      </Text>
    </Stack>
  );
}
