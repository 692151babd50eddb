import { ActionIcon, Button, CopyButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
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
            // An icon (Tabler, an SVG): the former '⧉' glyph is missing from the font and
            // showed as an empty box.
            <Tooltip label={copied ? t('supplies.copied') : t('supplies.copy')} withArrow>
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={`${t('supplies.copy')} ${label} : ${value}`}
                data-testid={`copy-${testId}`}
              >
                {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              </ActionIcon>
            </Tooltip>
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
