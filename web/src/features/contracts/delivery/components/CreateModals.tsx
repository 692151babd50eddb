import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { groupThousands } from '../../../../shared/format/money.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import type { ContractAnswer } from '../api/delivery-contracts.js';

/**
 * §8: a 422 on creation — 'Le solde disponible de votre wallet est insuffisant pour créer ce
 * contrat. Il manque <amount> FCFA', 'OK' (close) and 'Approvisionner le wallet' (the supplies
 * page with its new-supply modal open).
 */
export function InsufficientBalanceModal({
  missingAmount,
  onClose,
  onFund,
}: {
  missingAmount: number | null;
  onClose: () => void;
  onFund: () => void;
}) {
  const { t } = useTranslation('contracts');
  return (
    <AppModal
      opened={missingAmount !== null}
      onClose={onClose}
      title={t('create.insufficientTitle')}
    >
      <Stack align="center" ta="center">
        <ThemeIcon color="orange" variant="light" size={56} radius="xl">
          <IconAlertTriangle size={32} aria-hidden />
        </ThemeIcon>
        <Text data-testid="insufficient-balance">
          {t('create.insufficient', { amount: groupThousands(String(missingAmount ?? 0)) })}
        </Text>
        <Group justify="center">
          <Button variant="default" onClick={onClose}>
            {t('create.ok')}
          </Button>
          <Button onClick={onFund}>{t('create.fund')}</Button>
        </Group>
      </Stack>
    </AppModal>
  );
}

/** The success modal of a created contract: its reference, 'Voir le contrat', 'Terminer'. */
export function ContractCreatedModal({
  created,
  onView,
  onDone,
}: {
  created: ContractAnswer | null;
  onView: (id: string) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('contracts');
  return (
    <AppModal opened={created !== null} onClose={onDone} title={t('create.successTitle')}>
      <Stack align="center" ta="center">
        <ThemeIcon color="teal" variant="light" size={56} radius="xl">
          <IconCircleCheck size={32} aria-hidden />
        </ThemeIcon>
        <Text>{t('create.successText', { reference: created?.reference ?? '' })}</Text>
        <Group justify="center">
          <Button variant="default" onClick={() => created && onView(created.contractId)}>
            {t('create.successView')}
          </Button>
          <Button onClick={onDone}>{t('create.successDone')}</Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
