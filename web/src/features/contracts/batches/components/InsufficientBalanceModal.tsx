import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { groupThousands } from '../../../../shared/format/money.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';

/** §8: the 422 of 'Valider' — the missing amount, 'OK' and 'Approvisionner le wallet'. */
export function InsufficientBalanceModal({
  missingAmount,
  onClose,
  onFund,
}: {
  missingAmount: number | null;
  onClose: () => void;
  onFund: () => void;
}) {
  const { t } = useTranslation('contractBatches');
  return (
    <AppModal opened={missingAmount !== null} onClose={onClose} title={t('insufficient.title')}>
      <Stack align="center" ta="center">
        <ThemeIcon color="orange" variant="light" size={56} radius="xl">
          <IconAlertTriangle size={32} aria-hidden />
        </ThemeIcon>
        <Text data-testid="insufficient-balance">
          {t('insufficient.text', { amount: groupThousands(String(missingAmount ?? 0)) })}
        </Text>
        <Group justify="center">
          <Button variant="default" onClick={onClose}>
            {t('insufficient.ok')}
          </Button>
          <Button onClick={onFund}>{t('insufficient.fund')}</Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
