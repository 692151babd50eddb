import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useRouter, useSearch } from '@tanstack/react-router';
import { useCallback, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { safeRedirect } from '../../../shared/auth/redirect.js';
import { signedIn } from '../../../shared/auth/current-user.js';
import { FormAlert } from '../../../shared/ui/FormAlert.js';
import { PasswordField } from '../../../shared/ui/PasswordField.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { msg } from '../../../shared/validation/rules.js';
import { login } from '../api/auth.js';

const schema = z.object({
  email: z.string().trim().min(1, msg.required),
  password: z.string().min(1, msg.required),
});
type Values = z.infer<typeof schema>;

/**
 * The code of the screen sign-in opens (the dashboard unless `redirect` says otherwise),
 * downloaded once the user starts filling the form: 'Se connecter' then waits for the screen's
 * data only, not for its code as well. Once per page.
 */
function usePreloadTarget(href: string): () => void {
  const router = useRouter();
  const done = useRef(false);
  return useCallback(() => {
    if (done.current) return;
    done.current = true;
    const [routes] = router.getMatchedRoutes(new URL(href, window.location.origin).pathname);
    for (const route of routes) void router.loadRouteChunk(route)?.catch(() => undefined);
  }, [router, href]);
}

export function LoginPage() {
  const { t } = useTranslation('auth');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { redirect } = useSearch({ from: '/auth/login' });
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { email: '', password: '' },
  });
  const mutation = useMutation({
    mutationFn: login,
    onSuccess: async (answer) => {
      await signedIn(queryClient, answer.access_token, answer.user);
      void navigate({ href: safeRedirect(redirect), replace: true });
    },
  });
  const preload = usePreloadTarget(safeRedirect(redirect));
  const { errors, isValid } = form.formState;
  return (
    <form onSubmit={form.handleSubmit((v) => mutation.mutate(v))} onFocus={preload} noValidate>
      <Stack>
        <div>
          <Title order={1} size="h2">
            {t('login.title')}
          </Title>
          <Text c="dark.4">{t('login.subtitle')}</Text>
        </div>
        <FormAlert message={mutation.isError ? errorText(mutation.error, 'login') : null} />
        <TextInput
          label={t('email')}
          type="email"
          autoComplete="username"
          withAsterisk
          error={fieldError(errors.email)}
          {...form.register('email')}
        />
        <PasswordField
          label={t('password')}
          autoComplete="current-password"
          withAsterisk
          error={fieldError(errors.password)}
          {...form.register('password')}
        />
        <Anchor component={Link} to="/auth/password-forget" size="sm" ta="right">
          {t('login.forgot')}
        </Anchor>
        <Button type="submit" disabled={!isValid} loading={mutation.isPending}>
          {t('login.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('login.noAccount')}{' '}
          <Anchor component={Link} to="/auth/register">
            {t('login.signup')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
