import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import type { User } from '../../../shared/auth/user.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { deleteUser } from '../api/users.js';
import { notify } from '../../../shared/ui/notify.js';

export function DeleteUserModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation('users');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (id: string) => deleteUser(id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      onClose();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened={user !== null} onClose={onClose} title={t('delete.title')}>
      <Stack>
        <Text>{t('delete.text')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button
            color="red"
            loading={mutation.isPending}
            onClick={() => user && mutation.mutate(user.id)}
          >
            {t('delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
