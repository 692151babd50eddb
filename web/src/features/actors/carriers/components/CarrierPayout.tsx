import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { RequestPayoutChangeButton } from '../../payout/index.js';
import { Field } from '../../cooperatives/components/CooperativePayout.js';
import type { Carrier } from '../api/carriers.js';

/** The carrier's payout accounts, read-only: a later change is a request a super admin approves. */
export function CarrierPayout({ carrier }: { carrier: Carrier }) {
  const { t } = useTranslation('carriers');
  const none = t('detail.none');
  const role = useCurrentUser()?.role?.code;
  // Who may ask for a change (actors/payout): the super admin, an admin, the cluster manager.
  const mayRequest = (
    [ROLES.SUPER_ADMIN, ROLES.ADMIN, ROLES.CLUSTER_MANAGER] as (string | undefined)[]
  ).includes(role);
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
      <Group justify="space-between" align="center">
        <Text size="sm" c="dark.4">
          {t('form.payoutReadOnly')}
        </Text>
        {mayRequest && carrier.isActive && (
          <RequestPayoutChangeButton
            userId={carrier.userId}
            current={{
              momoAccountNumber: carrier.momoInfo.momoNumber,
              bankName: carrier.accountInfo.providerName,
              bankAccountNumber: carrier.accountInfo.accountNumber,
            }}
          />
        )}
      </Group>
    </Stack>
  );
}
