import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { RequestPayoutChangeButton } from '../../payout/index.js';
import type { Cooperative } from '../api/cooperatives.js';

/**
 * The cooperative's payout accounts, read-only: a later change is a request that a super
 * admin approves (four eyes), made from the payout request flow.
 */
export function CooperativePayout({ cooperative }: { cooperative: Cooperative }) {
  const { t } = useTranslation('cooperatives');
  const none = t('detail.none');
  const role = useCurrentUser()?.role?.code;
  // Who may ask for a change (actors/payout): the super admin, an admin, the cluster manager.
  const mayRequest = (
    [ROLES.SUPER_ADMIN, ROLES.ADMIN, ROLES.CLUSTER_MANAGER] as (string | undefined)[]
  ).includes(role);
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
      <Group justify="space-between" align="center">
        <Text size="sm" c="dark.4">
          {t('form.payoutReadOnly')}
        </Text>
        {mayRequest && cooperative.isActive && (
          <RequestPayoutChangeButton
            userId={cooperative.userId}
            current={{
              momoAccountNumber: cooperative.momoInfo.momoNumber,
              bankName: cooperative.accountInfo.providerName,
              bankAccountNumber: cooperative.accountInfo.accountNumber,
            }}
          />
        )}
      </Group>
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
