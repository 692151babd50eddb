import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { notify } from '../../../../shared/ui/notify.js';
import { deactivateSupplier, supplierKeys } from '../api/suppliers.js';

/**
 * The confirmation behind the list's trash icon (DELETE input-provider/{id}): the supplier
 * and its representative's account are only deactivated; the super admin can reactivate
 * them. The server's message is the success toast.
 */
export function DeactivateSupplierModal({
  supplier,
  onClose,
  onDone,
}: {
  supplier: { id: string; name: string } | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation('suppliers');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (id: string) => deactivateSupplier(id),
    onSuccess: async (answer) => {
      notify('success', answer.message);
      await queryClient.invalidateQueries({ queryKey: supplierKeys.all });
      onClose();
      onDone?.();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened={supplier !== null} onClose={onClose} title={t('deactivateModal.title')}>
      <Stack>
        <Text>{t('deactivateModal.text', { name: supplier?.name ?? '' })}</Text>
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
            onClick={() => supplier && mutation.mutate(supplier.id)}
          >
            {t('deactivateModal.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
