import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { notify } from '../../../../shared/ui/notify.js';
import { cooperativeKeys, deactivateCooperative, type Cooperative } from '../api/cooperatives.js';

/**
 * The confirmation before deactivating a cooperative (DELETE farmer-organization/{id}): the
 * cooperative and its representative's account are only deactivated; the super admin can
 * reactivate them. The server's message is the success toast.
 */
export function DeactivateCooperativeModal({
  cooperative,
  onClose,
  onDone,
}: {
  cooperative: Cooperative | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation('cooperatives');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (c: Cooperative) => deactivateCooperative(c.id),
    onSuccess: async (answer) => {
      notify('success', answer.message);
      await queryClient.invalidateQueries({ queryKey: cooperativeKeys.all });
      onClose();
      onDone?.();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened={cooperative !== null} onClose={onClose} title={t('deactivateModal.title')}>
      <Stack>
        <Text>{t('deactivateModal.text', { label: cooperative?.label ?? '' })}</Text>
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
            onClick={() => cooperative && mutation.mutate(cooperative)}
          >
            {t('deactivateModal.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
