import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { RequestPayoutChangeButton } from '../../payout/index.js';
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
  const role = useCurrentUser()?.role?.code;
  // Who may ask for a change (actors/payout): the super admin, an admin, the cluster manager.
  const mayRequest = (
    [ROLES.SUPER_ADMIN, ROLES.ADMIN, ROLES.CLUSTER_MANAGER] as (string | undefined)[]
  ).includes(role);
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
      <Group justify="space-between" align="center">
        <Text size="sm" c="dark.4">
          {t('form.payoutReadOnly')}
        </Text>
        {mayRequest && (
          <RequestPayoutChangeButton
            userId={grower.user.id}
            current={{
              momoAccountNumber: grower.momoInfo?.momoNumber ?? null,
              bankName: grower.accountInfo?.providerName ?? null,
              bankAccountNumber: grower.accountInfo?.accountNumber ?? null,
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
