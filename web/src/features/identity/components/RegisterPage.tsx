import {
  Anchor,
  Button,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { toE164 } from '../../../shared/format/phone.js';
import { DigitsInput } from '../../../shared/ui/DigitsInput.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { emailText, msg, phoneText, requiredText } from '../../../shared/validation/rules.js';
import { resendInvitation, signup, type SignupType } from '../api/auth.js';
import { notify } from '../../../shared/ui/notify.js';

const TYPES: SignupType[] = ['industrial', 'cluster-manager', 'sfd'];

const schema = z
  .object({
    lastname: requiredText(),
    firstname: requiredText(),
    email: emailText(),
    phone: phoneText(),
    type: z.string().refine((v) => (TYPES as string[]).includes(v), msg.required),
    ifu: z.string().trim(),
    denomination: z.string().trim(),
  })
  .superRefine((v, ctx) => {
    if (v.type !== 'industrial') return;
    if (!v.ifu) ctx.addIssue({ code: 'custom', path: ['ifu'], message: msg.required });
    if (!v.denomination)
      ctx.addIssue({ code: 'custom', path: ['denomination'], message: msg.required });
  });
type Values = z.infer<typeof schema>;

export function RegisterPage() {
  const { t } = useTranslation('auth');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: {
      lastname: '',
      firstname: '',
      email: '',
      phone: '',
      type: '',
      ifu: '',
      denomination: '',
    },
  });
  const submit = useMutation({
    mutationFn: (v: Values) =>
      signup(v.type as SignupType, {
        lastname: v.lastname,
        firstname: v.firstname,
        email: v.email,
        username: v.email,
        phone: toE164(v.phone),
        ...(v.type === 'industrial' ? { ifu: v.ifu, denomination: v.denomination } : {}),
      }),
    onError: (error) => notify('error', errorText(error)),
  });
  const resend = useMutation({
    mutationFn: () => resendInvitation(form.getValues('email')),
    onSuccess: () => notify('success', t('register.resent')),
  });
  const type = useWatch({ control: form.control, name: 'type' });
  const { errors, isValid } = form.formState;

  if (submit.isSuccess) {
    return (
      <Stack align="center" ta="center" data-testid="signup-sent">
        <Title order={1} size="h3">
          {t('register.sentTitle')}
        </Title>
        <Text>{t('register.sentText', { email: form.getValues('email') })}</Text>
        {resend.isError && (
          <Text c="red.8" role="alert">
            {errorText(resend.error)}
          </Text>
        )}
        <Button variant="light" onClick={() => resend.mutate()} loading={resend.isPending}>
          {t('register.resend')}
        </Button>
        <Anchor component={Link} to="/auth/login">
          {t('register.login')}
        </Anchor>
      </Stack>
    );
  }

  return (
    <form onSubmit={form.handleSubmit((v) => submit.mutate(v))} noValidate>
      <Stack>
        <Title order={1} size="h2">
          {t('register.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label={t('register.lastname')}
            withAsterisk
            autoComplete="family-name"
            error={fieldError(errors.lastname)}
            {...form.register('lastname')}
          />
          <TextInput
            label={t('register.firstname')}
            withAsterisk
            autoComplete="given-name"
            error={fieldError(errors.firstname)}
            {...form.register('firstname')}
          />
        </SimpleGrid>
        <TextInput
          label={t('email')}
          type="email"
          withAsterisk
          autoComplete="email"
          error={fieldError(errors.email)}
          {...form.register('email')}
        />
        <DigitsInput
          label={t('register.phone')}
          withAsterisk
          autoComplete="tel-national"
          maxLength={10}
          error={fieldError(errors.phone)}
          {...form.register('phone')}
        />
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <Select
              label={t('register.type')}
              withAsterisk
              data={TYPES.map((v) => ({ value: v, label: t(`register.types.${v}`) }))}
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              error={fieldError(errors.type)}
            />
          )}
        />
        {type === 'industrial' && (
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <DigitsInput
              label={t('register.ifu')}
              withAsterisk
              error={fieldError(errors.ifu)}
              {...form.register('ifu')}
            />
            <TextInput
              label={t('register.denomination')}
              withAsterisk
              error={fieldError(errors.denomination)}
              {...form.register('denomination')}
            />
          </SimpleGrid>
        )}
        <Button type="submit" disabled={!isValid} loading={submit.isPending}>
          {t('register.submit')}
        </Button>
        <Group justify="center" gap={4}>
          <Text size="sm">{t('register.haveAccount')}</Text>
          <Anchor component={Link} to="/auth/login" size="sm">
            {t('register.login')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
