import { Button, Group, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { currentUserQuery } from '../../../shared/auth/current-user.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { emailText, requiredText } from '../../../shared/validation/rules.js';
import { updateMyField, type ProfileField } from '../api/profile.js';
import { notify } from '../../../shared/ui/notify.js';

/** One profile field in a modal; on success the modal closes and the profile reloads. */
export function EditFieldModal({
  field,
  label,
  initial,
  onClose,
}: {
  field: ProfileField;
  label: string;
  initial: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('profile');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const schema = z.object({ value: field === 'email' ? emailText() : requiredText() });
  const form = useForm<{ value: string }>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { value: initial },
  });
  const mutation = useMutation({
    mutationFn: (v: { value: string }) => updateMyField(field, v.value),
    onSuccess: async () => {
      notify('success', t('updated'));
      await queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
      onClose();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened onClose={onClose} title={t('editField', { field: label })}>
      <form onSubmit={form.handleSubmit((v) => mutation.mutate(v))} noValidate>
        <Stack>
          <TextInput
            label={label}
            type={field === 'email' ? 'email' : 'text'}
            withAsterisk
            data-autofocus
            error={fieldError(form.formState.errors.value)}
            {...form.register('value')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={!form.formState.isValid} loading={mutation.isPending}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
