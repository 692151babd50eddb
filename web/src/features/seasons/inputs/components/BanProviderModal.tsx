import { Button, Group, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { notify } from '../../../../shared/ui/notify.js';
import { banProvider, inputKeys } from '../api/inputs.js';

/**
 * The ban (spec §2.5): 'Êtes-vous sur de vouloir bannir {name} de cette saison ?' with
 * 'Oui,bannir'; success '{name} est bani de la saison avec succès'. The server releases what
 * the provider's hold still keeps.
 */
export function BanProviderModal({
  provider,
  onClose,
}: {
  provider: { id: number; name: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('seasonInputs');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const ban = useMutation({
    mutationFn: (id: number) => banProvider(id),
    onSuccess: async () => {
      notify('success', t('providers.banned', { name: provider?.name ?? '' }));
      await queryClient.invalidateQueries({ queryKey: inputKeys.all });
      onClose();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened={provider !== null} onClose={onClose} title={t('providers.banTitle')}>
      <Text>{t('providers.banConfirm', { name: provider?.name ?? '' })}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          {t('providers.cancel')}
        </Button>
        <Button
          color="red"
          loading={ban.isPending}
          onClick={() => provider && ban.mutate(provider.id)}
        >
          {t('providers.banYes')}
        </Button>
      </Group>
    </AppModal>
  );
}
