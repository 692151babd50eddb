import { Alert, Anchor, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { isApiError } from '../../../shared/api/api-error.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { FormAlert } from '../../../shared/ui/FormAlert.js';
import { PasswordChecklist } from '../../../shared/ui/PasswordChecklist.js';
import { PasswordField } from '../../../shared/ui/PasswordField.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { passwordPair } from '../../../shared/validation/rules.js';
import {
  checkLink,
  forgotPassword,
  resendInvitation,
  resetPassword,
  validateSignup,
} from '../api/auth.js';
import { notify } from '../../../shared/ui/notify.js';

const schema = passwordPair();
type Values = z.infer<typeof schema>;

/**
 * Password from a mailed link: `invitation` completes a registration
 * (/auth/signup-invitation), `reset` changes a forgotten one (/auth/change-password). The link
 * is checked when the page opens (`POST /users/link/check`, which spends nothing): a dead one
 * — used, expired, or replaced by a newer mail — says so at once, with a way to get a new one,
 * instead of taking a password first.
 */
export function SetPasswordPage({
  mode,
  token,
  email,
}: {
  mode: 'invitation' | 'reset';
  token?: string;
  email?: string;
}) {
  const { t } = useTranslation('auth');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { password: '', confirmPassword: '' },
  });
  const mutation = useMutation({
    mutationFn: (v: Values) => {
      const body = { token: token ?? '', email: email ?? '', ...v };
      return mode === 'invitation' ? validateSignup(body) : resetPassword(body);
    },
    onSuccess: () => {
      if (mode === 'reset') {
        notify('success', t('changePassword.success'));
        void navigate({ to: '/auth/login' });
      }
    },
  });
  const password = useWatch({ control: form.control, name: 'password' });
  const title = mode === 'invitation' ? t('setPassword.title') : t('changePassword.title');
  const type = mode === 'invitation' ? 'INVITATION' : 'RESET';
  const link = useQuery({
    queryKey: ['link-check', type, token, email],
    queryFn: () => checkLink({ token: token!, email: email!, type }),
    enabled: Boolean(token && email),
    staleTime: Infinity,
    retry: false,
  });
  const newLink = useMutation({
    mutationFn: () => (mode === 'invitation' ? resendInvitation(email!) : forgotPassword(email!)),
  });
  // A 403 on submit means the link died meanwhile: the same notice.
  const refused = mutation.isError && isApiError(mutation.error) && mutation.error.status === 403;

  if (!token || !email) {
    return (
      <Stack>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Alert color="red" role="alert">
          {t('setPassword.missingLink')}
        </Alert>
      </Stack>
    );
  }
  if (link.isPending) {
    return (
      <Stack align="center" py="xl" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden />
        <Text c="dark.4">{t('setPassword.checking')}</Text>
      </Stack>
    );
  }
  if (link.data?.valid === false || refused) {
    return (
      <Stack data-testid="dead-link">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Alert color="red" role="alert" title={t('setPassword.deadTitle')}>
          {t('setPassword.deadText')}
        </Alert>
        {newLink.isSuccess ? (
          <Alert color="teal" role="status">
            {t('setPassword.newLinkSent', { email })}
          </Alert>
        ) : (
          <Button onClick={() => newLink.mutate()} loading={newLink.isPending}>
            {t('setPassword.askNewLink')}
          </Button>
        )}
        <FormAlert message={newLink.isError ? errorText(newLink.error) : null} />
        <Anchor component={Link} to="/auth/login">
          {t('setPassword.alreadySet')}
        </Anchor>
      </Stack>
    );
  }
  if (mode === 'invitation' && mutation.isSuccess) {
    return (
      <Stack data-testid="password-set">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Alert color="teal">
          {t(
            (mutation.data as { active?: boolean } | undefined)?.active
              ? 'setPassword.doneActive'
              : 'setPassword.done',
          )}
        </Alert>
        <Anchor component={Link} to="/auth/login">
          {t('register.login')}
        </Anchor>
      </Stack>
    );
  }
  const failure = mutation.isError
    ? mode === 'invitation'
      ? errorText(mutation.error, 'signupValidation')
      : t('errors:passwordNotChanged')
    : null;
  return (
    <form onSubmit={form.handleSubmit((v) => mutation.mutate(v))} noValidate>
      <Stack>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dark.4">{t('setPassword.text', { email })}</Text>
        <FormAlert message={failure} />
        <PasswordField
          label={t('password')}
          autoComplete="new-password"
          withAsterisk
          error={fieldError(form.formState.errors.password)}
          {...form.register('password', { deps: ['confirmPassword'] })}
        />
        <PasswordChecklist value={password} />
        <PasswordField
          label={t('confirmPassword')}
          autoComplete="new-password"
          withAsterisk
          error={fieldError(form.formState.errors.confirmPassword)}
          {...form.register('confirmPassword')}
        />
        <Button type="submit" disabled={!form.formState.isValid} loading={mutation.isPending}>
          {mode === 'invitation' ? t('setPassword.submit') : t('changePassword.submit')}
        </Button>
      </Stack>
    </form>
  );
}
