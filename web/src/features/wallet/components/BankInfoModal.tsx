import { Button, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../shared/ui/AppModal.js';

/** After a bank supply: the account to pay and the reference to write on the slip. */
export function BankInfoModal({
  opened,
  onClose,
  accountNumber,
  bankName,
  reference,
}: {
  opened: boolean;
  onClose: () => void;
  accountNumber: string;
  bankName?: string | undefined;
  reference: string;
}) {
  const { t } = useTranslation('wallet');
  const row = (label: string, value: string, testId: string) => (
    <Paper withBorder p="sm" radius="sm">
      <Text size="sm" c="dark.5">
        {label}
      </Text>
      <Group justify="space-between">
        <Text fw={700} data-testid={testId}>
          {value}
        </Text>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={copy}
              aria-label={`${label} : ${value}`}
            >
              {copied ? '✓' : '⧉'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Paper>
  );
  return (
    <AppModal opened={opened} onClose={onClose} title={t('supplies.bankInfoTitle')}>
      <Stack>
        <Text>{t('supplies.bankInfoText')}</Text>
        {bankName && row(t('supplies.bank'), bankName, 'bank-name')}
        {row(t('supplies.accountNumber'), accountNumber, 'bank-account')}
        {row(t('supplies.reference'), reference, 'bank-reference')}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('supplies.ok')}</Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
