import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { notify } from '../../../../shared/ui/notify.js';
import { banGrower, growerKeys, reinstateGrower, type GrowerRow } from '../api/growers.js';

export type BanAction = { grower: Pick<GrowerRow, 'id' | 'user'>; action: 'ban' | 'reinstate' };

/**
 * The super admin's confirmation before banning a grower (a deactivation: 'Bannir') or
 * reinstating a banned one ('Réintégrer'); the lists and the detail refresh after.
 */
export function BanGrowerModal({
  target,
  onClose,
}: {
  target: BanAction | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('growers');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ grower, action }: BanAction) =>
      action === 'ban' ? banGrower(grower) : reinstateGrower(grower),
    onSuccess: async (_, { action }) => {
      notify('success', t(action === 'ban' ? 'bannedSuccess' : 'reinstatedSuccess'));
      await queryClient.invalidateQueries({ queryKey: growerKeys.all });
      onClose();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const ban = target?.action !== 'reinstate';
  const name = target ? `${target.grower.user.firstname} ${target.grower.user.lastname}` : '';
  return (
    <AppModal
      opened={target !== null}
      onClose={onClose}
      title={t(ban ? 'banModal.title' : 'reinstateModal.title')}
    >
      <Stack>
        <Text>{t(ban ? 'banModal.text' : 'reinstateModal.text', { name })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button
            color={ban ? 'red' : 'leaf'}
            loading={mutation.isPending}
            onClick={() => target && mutation.mutate(target)}
          >
            {t(ban ? 'banModal.confirm' : 'reinstateModal.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
