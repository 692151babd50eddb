import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../shared/ui/AppModal.js';

/** 'Êtes-vous sûr de vouloir supprimer … ?' with Annuler / 'Oui, supprimer'. */
export function ConfirmDeleteModal({
  opened,
  title,
  text,
  pending,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  text: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('places');
  return (
    <AppModal opened={opened} onClose={onClose} title={title}>
      <Stack>
        <Text>{text}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {t('confirmDelete')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
