import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { emailText } from '../../../shared/validation/rules.js';
import { forgotPassword } from '../api/auth.js';

const schema = z.object({ email: emailText() });
type Values = z.infer<typeof schema>;

/** An e-mail form, then a 'sent' state with a resend button. */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { email: '' },
  });
  const [sent, setSent] = useState(false);
  const mutation = useMutation({
    mutationFn: (v: Values) => forgotPassword(v.email),
    onSuccess: () => setSent(true),
  });
  const email = form.getValues('email');
  const backLink = (
    <Anchor component={Link} to="/auth/login" size="sm">
      {t('forgot.back')}
    </Anchor>
  );
  if (sent) {
    return (
      <Stack align="center" ta="center" data-testid="forgot-sent">
        <Title order={1} size="h3">
          {t('forgot.sentTitle')}
        </Title>
        <Text>{t('forgot.sentText', { email })}</Text>
        {mutation.isError && (
          <Text c="red.8" size="sm" role="alert">
            {errorText(mutation.error)}
          </Text>
        )}
        <Button
          variant="light"
          onClick={() => mutation.mutate({ email })}
          loading={mutation.isPending}
        >
          {t('forgot.resend')}
        </Button>
        {backLink}
      </Stack>
    );
  }
  return (
    <form onSubmit={form.handleSubmit((v) => mutation.mutate(v))} noValidate>
      <Stack>
        <Title order={1} size="h2">
          {t('forgot.title')}
        </Title>
        <Text c="dark.4">{t('forgot.text')}</Text>
        <TextInput
          label={t('email')}
          type="email"
          withAsterisk
          autoComplete="email"
          error={fieldError(form.formState.errors.email)}
          {...form.register('email')}
        />
        {mutation.isError && (
          <Text c="red.8" size="sm" role="alert">
            {errorText(mutation.error)}
          </Text>
        )}
        <Button type="submit" disabled={!form.formState.isValid} loading={mutation.isPending}>
          {t('forgot.submit')}
        </Button>
        {backLink}
      </Stack>
    </form>
  );
}
