import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import type { Cooperative } from '../api/cooperatives.js';

/**
 * The cooperative's payout accounts, read-only: a later change is a request that a super
 * admin approves (four eyes), made from the payout request flow.
 */
export function CooperativePayout({ cooperative }: { cooperative: Cooperative }) {
  const { t } = useTranslation('cooperatives');
  const none = t('detail.none');
  const momo = toLocalPhone(cooperative.momoInfo.momoNumber);
  const bank = [cooperative.accountInfo.providerName, cooperative.accountInfo.accountNumber]
    .filter(Boolean)
    .join(' ');
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field label={t('form.momoNumber')} value={momo || none} />
        <Field label={t('form.operatorLabel')} value={cooperative.momoInfo.providerName ?? none} />
        <Field label={t('form.bankName')} value={bank || none} />
      </SimpleGrid>
      <Text size="sm" c="dark.4">
        {t('form.payoutReadOnly')}
      </Text>
    </Stack>
  );
}

export function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" c="dark.4">
        {label}
      </Text>
      <Text fw={500}>{value}</Text>
    </div>
  );
}
