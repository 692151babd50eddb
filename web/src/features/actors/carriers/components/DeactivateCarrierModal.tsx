import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { notify } from '../../../../shared/ui/notify.js';
import { carrierKeys, deactivateCarrier, type Carrier } from '../api/carriers.js';

/**
 * 'Êtes-vous sûr de vouloir supprimer ce transporteur ?' (spec §2.2): the carrier is only
 * deactivated and can be reactivated; the server's message ('Le transporteur <nom> est
 * désactivé. Il pourra être réactivé') is the success toast.
 */
export function DeactivateCarrierModal({
  carrier,
  onClose,
  onDone,
}: {
  carrier: Carrier | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation('carriers');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (c: Carrier) => deactivateCarrier(c.id),
    onSuccess: async (answer) => {
      notify('success', answer.message);
      await queryClient.invalidateQueries({ queryKey: carrierKeys.all });
      onClose();
      onDone?.();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened={carrier !== null} onClose={onClose} title={t('deactivateModal.title')}>
      <Stack>
        <Text>{t('deactivateModal.text')}</Text>
        <Text size="sm" c="dark.4">
          {t('deactivateModal.note')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button
            color="red"
            loading={mutation.isPending}
            onClick={() => carrier && mutation.mutate(carrier)}
          >
            {t('deactivateModal.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
