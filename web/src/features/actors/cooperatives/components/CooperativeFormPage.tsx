import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../shared/api/api-error.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { DigitsInput } from '../../../../shared/ui/DigitsInput.js';
import { notify } from '../../../../shared/ui/notify.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import { clustersQuery } from '../../../identity/api/users.js';
import { operatorOf } from '../../../wallet/model/supply-row.js';
import {
  BANKS,
  cooperativeKeys,
  cooperativeQuery,
  createCooperative,
  updateCooperative,
  type Cooperative,
} from '../api/cooperatives.js';
import {
  cooperativeCreateSchema,
  cooperativeEditSchema,
  emptyCooperativeForm,
  prefilledMomo,
  serverFieldErrors,
  toCooperativeForm,
  toCreateInput,
  toUpdateInput,
  type CooperativeFormValues,
} from '../model/cooperative-form.js';
import { CooperativePayout } from './CooperativePayout.js';

/**
 * 'Ajouter une coopérative' (organisations-paysannes/create) and 'Modifier une coopérative'
 * (…/edit/{id}): the denomination, the representative, and at creation the payout accounts
 * (later changes go through a request approved by a super admin). The administrators choose
 * the cluster; the cluster manager and the aggregator register in their own.
 */
export function CooperativeFormPage({ id }: { id?: string }) {
  const { t } = useTranslation('cooperatives');
  const cooperative = useQuery({ ...cooperativeQuery(id ?? ''), enabled: Boolean(id) });
  const errorText = useErrorText();
  if (id && !cooperative.data) {
    return (
      <FormFrame title={t('form.editTitle')}>
        {cooperative.isError ? (
          <Alert color="red" role="alert">
            {errorText(cooperative.error)}
          </Alert>
        ) : (
          <Text c="dimmed">{t('common:loading')}</Text>
        )}
      </FormFrame>
    );
  }
  return <CooperativeForm cooperative={cooperative.data} />;
}

export function FormFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('cooperatives');
  const router = useRouter();
  return (
    <Stack maw={960} mx="auto" gap="lg">
      <Group gap="sm">
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={t('common:back')}
          onClick={() => router.history.back()}
        >
          <IconArrowLeft aria-hidden />
        </ActionIcon>
        <Title order={1} size="h2">
          {title}
        </Title>
      </Group>
      {children}
    </Stack>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function CooperativeForm({ cooperative }: { cooperative: Cooperative | undefined }) {
  const { t } = useTranslation('cooperatives');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const editing = cooperative !== undefined;
  const role = me?.role?.code;
  const choosesCluster = role === ROLES.SUPER_ADMIN || role === ROLES.ADMIN;
  const clusters = useQuery({ ...clustersQuery, enabled: choosesCluster && !editing });
  const form = useForm<CooperativeFormValues>({
    resolver: zodResolver(editing ? cooperativeEditSchema : cooperativeCreateSchema) as never,
    mode: 'onChange',
    defaultValues: cooperative
      ? toCooperativeForm(cooperative)
      : { ...emptyCooperativeForm, clusterId: choosesCluster ? '' : (me?.clusterId ?? '') },
  });
  const { control, formState } = form;

  useEffect(() => {
    if (!editing && !choosesCluster && me?.clusterId) {
      form.setValue('clusterId', me.clusterId, { shouldValidate: true });
    }
  }, [editing, choosesCluster, me?.clusterId, form]);

  // The mobile money number follows the phone until it is typed by hand (spec §4).
  const phone = useWatch({ control, name: 'phone' });
  const momo = useWatch({ control, name: 'momoNumber' });
  const momoTyped = useRef(false);
  useEffect(() => {
    if (editing || momoTyped.current) return;
    form.setValue('momoNumber', prefilledMomo(phone ?? ''), {
      shouldValidate: (phone ?? '') !== '',
    });
  }, [phone, editing, form]);

  const text = (error: FieldError | undefined) =>
    error?.type === 'server' ? error.message : fieldError(error);

  const save = useMutation({
    mutationFn: (values: CooperativeFormValues) =>
      cooperative
        ? updateCooperative(cooperative.id, toUpdateInput(values))
        : createCooperative(values.clusterId, toCreateInput(values)),
    onSuccess: async (saved) => {
      notify('success', t(editing ? 'form.updated' : 'form.added'));
      await queryClient.invalidateQueries({ queryKey: cooperativeKeys.all });
      await navigate({ to: '/organisations-paysannes/show/$id', params: { id: saved.id } });
    },
    onError: (error) => {
      notify('error', errorText(error));
      if (error instanceof ApiError) {
        for (const [field, message] of serverFieldErrors(error)) {
          form.setError(field, { type: 'server', message });
        }
      }
    },
  });

  const input = (name: 'label' | 'lastname' | 'firstname' | 'email' | 'rccm', required = false) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextInput
          {...field}
          label={t(`form.${name}`)}
          withAsterisk={required}
          type={name === 'email' ? 'email' : 'text'}
          // The representative's e-mail and phone are its own (its sign-in): read-only here.
          disabled={editing && name === 'email'}
          error={text(fieldState.error)}
        />
      )}
    />
  );
  const digits = (name: 'nip' | 'phone' | 'ifu' | 'momoNumber', max: number, required = false) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <DigitsInput
          {...field}
          onChange={(event) => {
            if (name === 'momoNumber') momoTyped.current = true;
            field.onChange(event);
          }}
          label={t(`form.${name}`)}
          withAsterisk={required}
          disabled={editing && name === 'phone'}
          maxLength={max}
          description={
            name === 'momoNumber' && operatorOf(momo ?? '')
              ? t('form.operator', { operator: operatorOf(momo ?? '') })
              : undefined
          }
          error={text(fieldState.error)}
        />
      )}
    />
  );

  return (
    <FormFrame title={t(editing ? 'form.editTitle' : 'form.addTitle')}>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
        aria-label={t(editing ? 'form.editTitle' : 'form.addTitle')}
      >
        <Stack gap="lg">
          <Section title={t('form.organization')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {input('label', true)}
              {digits('ifu', 13, true)}
              {input('rccm')}
              {!editing && choosesCluster && (
                <Controller
                  control={control}
                  name="clusterId"
                  render={({ field, fieldState }) => (
                    <Select
                      label={t('form.cluster')}
                      withAsterisk
                      searchable
                      data={(clusters.data?.data ?? []).map((c) => ({
                        value: c.id,
                        label: c.label,
                      }))}
                      value={field.value || null}
                      onChange={(v) => field.onChange(v ?? '')}
                      onBlur={field.onBlur}
                      name={field.name}
                      error={text(fieldState.error)}
                    />
                  )}
                />
              )}
            </SimpleGrid>
          </Section>
          <Section title={t('form.representative')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {input('lastname', true)}
              {input('firstname', true)}
              {digits('phone', 10, true)}
              {input('email', true)}
              {digits('nip', 10)}
            </SimpleGrid>
          </Section>
          <Section title={t('form.payout')}>
            {editing ? (
              <CooperativePayout cooperative={cooperative} />
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Controller
                  control={control}
                  name="bankName"
                  render={({ field, fieldState }) => (
                    <Select
                      label={t('form.bankName')}
                      withAsterisk
                      data={[...BANKS]}
                      value={field.value || null}
                      onChange={(v) => field.onChange(v ?? '')}
                      onBlur={field.onBlur}
                      name={field.name}
                      error={text(fieldState.error)}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="bankAccountNumber"
                  render={({ field, fieldState }) => (
                    <TextInput
                      {...field}
                      label={t('form.bankAccountNumber')}
                      withAsterisk
                      error={text(fieldState.error)}
                    />
                  )}
                />
                {digits('momoNumber', 10, true)}
              </SimpleGrid>
            )}
          </Section>
          <Group justify="flex-end">
            <Button
              type="submit"
              disabled={!formState.isValid || save.isPending}
              loading={save.isPending}
            >
              {t(editing ? 'form.submitEdit' : 'form.submitAdd')}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormFrame>
  );
}
