import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { notify } from '../../../shared/ui/notify.js';
import { detachIndustrial, seasonKeys, type SeasonLink } from '../model/index.js';

export const linkName = (link: SeasonLink) => `${link.user.firstname} ${link.user.lastname}`;

/**
 * Removing an aggregator from a season while it has not accepted
 * (`DELETE clusters/delete-industrial-link/{id}`); a refusal shows the server's message.
 */
export function DetachIndustrialModal({
  link,
  onClose,
}: {
  link: SeasonLink | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (l: SeasonLink) => detachIndustrial(l.linkId),
    onSuccess: async () => {
      notify('success', t('industrials.detached'));
      await queryClient.invalidateQueries({ queryKey: seasonKeys.all });
      onClose();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened={link !== null} onClose={onClose} title={t('industrials.detachTitle')}>
      <Stack>
        <Text>{link ? t('industrials.detachText', { name: linkName(link) }) : ''}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button
            color="red"
            loading={mutation.isPending}
            onClick={() => link && mutation.mutate(link)}
          >
            {t('industrials.detachConfirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
