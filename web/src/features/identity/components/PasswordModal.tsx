import { Button, Group, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { saveSession } from '../../../shared/auth/session.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { PasswordChecklist } from '../../../shared/ui/PasswordChecklist.js';
import { PasswordField } from '../../../shared/ui/PasswordField.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { msg, passwordPair } from '../../../shared/validation/rules.js';
import { changeMyPassword } from '../api/profile.js';
import { notify } from '../../../shared/ui/notify.js';

const schema = z.intersection(
  z.object({ oldPassword: z.string().min(1, msg.required) }),
  passwordPair(),
);
type Values = z.infer<typeof schema>;

/**
 * Current password, new password with the live checklist, confirmation. The change revokes
 * every session's token, this one's included: the answer's new token replaces it.
 */
export function PasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const user = useCurrentUser();
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { oldPassword: '', password: '', confirmPassword: '' },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const mutation = useMutation({
    mutationFn: (v: Values) =>
      changeMyPassword({
        oldPassword: v.oldPassword,
        newPassword: v.password,
        confirmPassword: v.confirmPassword,
      }),
    onSuccess: (answer) => {
      if (user) {
        saveSession(answer.access_token, { id: user.id, role: { code: user.role?.code ?? '' } });
      }
      notify('success', t('passwordChanged'));
      close();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const password = useWatch({ control: form.control, name: 'password' });
  const { errors } = form.formState;
  return (
    <AppModal opened={opened} onClose={close} title={t('editField', { field: t('password') })}>
      <form onSubmit={form.handleSubmit((v) => mutation.mutate(v))} noValidate>
        <Stack>
          <PasswordField
            label={t('currentPassword')}
            autoComplete="current-password"
            withAsterisk
            error={fieldError(errors.oldPassword)}
            {...form.register('oldPassword')}
          />
          <PasswordField
            label={t('newPassword')}
            autoComplete="new-password"
            withAsterisk
            error={fieldError(errors.password)}
            {...form.register('password', { deps: ['confirmPassword'] })}
          />
          <PasswordChecklist value={password} />
          <PasswordField
            label={t('confirmPassword')}
            autoComplete="new-password"
            withAsterisk
            error={fieldError(errors.confirmPassword)}
            {...form.register('confirmPassword')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
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
