import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { FormAlert } from '../../../../shared/ui/FormAlert.js';

/** 'Exécuter' asks first: the spec's warning 'Action irrécersible' (§4), then runs. */
export function RunContractsModal({
  opened,
  count,
  pending,
  error,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  count: number;
  pending: boolean;
  error: string | null;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('contracts');
  return (
    <AppModal opened={opened} onClose={onClose} title={t('run.title')}>
      <Stack>
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />}>
          <Text size="sm">{t('run.text', { count })}</Text>
        </Alert>
        <FormAlert message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={pending}>
            {t('common:cancel')}
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {t('run.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
