import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import type { Grower } from '../api/growers.js';
import { operatorOfNumber } from '../model/grower-form.js';

/** The grower's payout account, read-only: a change is a request approved by a super admin. */
export function PayoutAccount({ grower }: { grower: Grower }) {
  const { t } = useTranslation('growers');
  const momo = toLocalPhone(grower.momoInfo?.momoNumber);
  const operator = grower.momoInfo?.providerName ?? operatorOfNumber(momo);
  const bank = grower.accountInfo?.providerName;
  const account = grower.accountInfo?.accountNumber;
  const none = t('detail.none');
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field label={t('form.momoNumber')} value={momo || none} />
        <Field label={t('form.operatorLabel')} value={operator ?? none} />
        <Field
          label={t('form.bankName')}
          value={bank || account ? `${bank ?? ''} ${account ?? ''}`.trim() : t('form.noBank')}
        />
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
