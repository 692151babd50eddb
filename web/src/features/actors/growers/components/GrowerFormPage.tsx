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
import { IconArrowLeft, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';
import {
  Controller,
  useFieldArray,
  useForm,
  useWatch,
  type FieldError,
  type Path,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError, isApiError } from '../../../../shared/api/api-error.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { DigitsInput } from '../../../../shared/ui/DigitsInput.js';
import { notify } from '../../../../shared/ui/notify.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import { LocationCascade } from '../../../locations/index.js';
import { clustersQuery } from '../../../identity/api/users.js';
import {
  BANKS,
  cooperativeOptionsQuery,
  createGrower,
  growerKeys,
  growerQuery,
  updateGrower,
  type Grower,
} from '../api/growers.js';
import {
  emptyGrowerForm,
  emptyPlot,
  growerCreateSchema,
  growerEditSchema,
  NO_COOPERATIVE,
  operatorOfNumber,
  prefilledMomo,
  toCreateInput,
  toGrowerForm,
  toUpdateInput,
  type GrowerFormValues,
} from '../model/grower-form.js';
import { serverFieldErrors } from '../model/server-errors.js';
import { PlotFields } from './PlotFields.js';
import { PayoutAccount } from './PayoutAccount.js';

/**
 * 'Ajouter un producteur' (producteurs/create) and 'Modifier un producteur'
 * (producteurs/edit/{id}): one screen without the navigation bar, three sections. Rules of
 * spec §5 on input; the submit button stays disabled while the form is invalid; the server's
 * French message as a toast, and on the field it names (409: the phone).
 */
export function GrowerFormPage({ id }: { id?: string }) {
  const { t } = useTranslation('growers');
  const grower = useQuery({ ...growerQuery(id ?? ''), enabled: Boolean(id) });
  const errorText = useErrorText();
  if (id && !grower.data) {
    return (
      <FormFrame title={t('form.editTitle')}>
        {grower.isError ? (
          <Alert color="red" role="alert">
            {errorText(grower.error)}
          </Alert>
        ) : (
          <Text c="dimmed">{t('common:loading')}</Text>
        )}
      </FormFrame>
    );
  }
  return <GrowerForm grower={grower.data} />;
}

function FormFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('growers');
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

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function GrowerForm({ grower }: { grower: Grower | undefined }) {
  const { t } = useTranslation('growers');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const editing = grower !== undefined;
  // The cluster manager (and an admin with a cluster) registers in its own cluster; the super
  // admin and an admin without one choose it.
  const ownCluster = me?.clusterId ?? '';
  const choosesCluster =
    !editing &&
    !ownCluster &&
    (me?.role?.code === ROLES.SUPER_ADMIN || me?.role?.code === ROLES.ADMIN);
  const form = useForm<GrowerFormValues>({
    resolver: zodResolver(editing ? growerEditSchema : growerCreateSchema) as never,
    mode: 'onChange',
    defaultValues: grower ? toGrowerForm(grower) : { ...emptyGrowerForm, clusterId: ownCluster },
  });
  const { control, formState } = form;
  const plots = useFieldArray({ control, name: 'plots' });
  const clusterId = useWatch({ control, name: 'clusterId' });
  const clusters = useQuery({ ...clustersQuery, enabled: choosesCluster });
  const cooperatives = useQuery(cooperativeOptionsQuery(clusterId ?? ''));

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
    mutationFn: (values: GrowerFormValues) =>
      grower
        ? updateGrower(grower.id, toUpdateInput(values))
        : createGrower(values.clusterId, toCreateInput(values)),
    onSuccess: async (saved) => {
      notify('success', t(editing ? 'form.updated' : 'form.added'));
      await queryClient.invalidateQueries({ queryKey: growerKeys.all });
      await navigate({ to: '/producteurs/show/$id', params: { id: saved.id ?? grower!.id } });
    },
    onError: (error) => {
      notify('error', errorText(error));
      if (error instanceof ApiError) {
        for (const [field, message] of serverFieldErrors(error)) {
          form.setError(field as Path<GrowerFormValues>, { type: 'server', message });
        }
      }
    },
  });

  const input = (
    name: 'lastname' | 'firstname' | 'email' | 'contactFullname',
    required = false,
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextInput
          {...field}
          label={t(`form.${name}`)}
          withAsterisk={required}
          type={name === 'email' ? 'email' : 'text'}
          error={text(fieldState.error)}
        />
      )}
    />
  );
  const digits = (name: 'nip' | 'phone' | 'contactPhone' | 'momoNumber', required = false) => (
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
          maxLength={10}
          description={
            name === 'momoNumber' && operatorOfNumber(momo ?? '')
              ? t('form.operator', { operator: operatorOfNumber(momo ?? '') })
              : undefined
          }
          error={text(fieldState.error)}
        />
      )}
    />
  );

  const conflict = isApiError(save.error, 409) ? save.error.message : null;

  if (!editing && !ownCluster && !choosesCluster) {
    return (
      <FormFrame title={t('form.addTitle')}>
        <Alert color="leaf" variant="light" role="status" data-testid="growers-no-cluster">
          {t('form.noCluster')}
        </Alert>
      </FormFrame>
    );
  }

  return (
    <FormFrame title={t(editing ? 'form.editTitle' : 'form.addTitle')}>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
        aria-label={t(editing ? 'form.editTitle' : 'form.addTitle')}
      >
        <Stack gap="lg">
          <Section title={t('form.personal')}>
            <Stack gap="sm">
              {choosesCluster && (
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
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
                        onChange={(v) => {
                          field.onChange(v ?? '');
                          // The cooperatives are the chosen cluster's.
                          if (form.getValues('cooperative') !== NO_COOPERATIVE) {
                            form.setValue('cooperative', '', { shouldValidate: false });
                          }
                        }}
                        onBlur={field.onBlur}
                        name={field.name}
                        error={text(fieldState.error)}
                      />
                    )}
                  />
                </SimpleGrid>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {input('lastname', true)}
                {input('firstname', true)}
                {digits('nip')}
                {digits('phone', true)}
                {input('email')}
                <Controller
                  control={control}
                  name="cooperative"
                  render={({ field, fieldState }) => (
                    <Select
                      label={t('form.cooperative')}
                      withAsterisk
                      searchable
                      data={[
                        { value: NO_COOPERATIVE, label: t('noCooperative') },
                        ...(cooperatives.data ?? []).map((c) => ({ value: c.id, label: c.label })),
                      ]}
                      value={field.value || null}
                      onChange={(v) => field.onChange(v ?? '')}
                      onBlur={field.onBlur}
                      name={field.name}
                      error={text(fieldState.error)}
                    />
                  )}
                />
                {input('contactFullname')}
                {digits('contactPhone')}
              </SimpleGrid>
              <Text fw={600} size="sm" mt="xs">
                {t('form.address')}
              </Text>
              <LocationCascade control={control} prefix="address" required />
            </Stack>
          </Section>

          {!editing && (
            <Section title={t('form.production')}>
              <Stack gap="lg">
                {plots.fields.map((plot, index) => (
                  <Paper key={plot.id} component="fieldset" withBorder radius="md" p="md" m={0}>
                    <Text component="legend" fw={600} px={4}>
                      {t('plot.title', { index: index + 1 })}
                    </Text>
                    {plots.fields.length > 1 && (
                      <Group justify="flex-end" mb="xs">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('plot.remove', { index: index + 1 })}
                          onClick={() => plots.remove(index)}
                        >
                          <IconTrash size={18} aria-hidden />
                        </ActionIcon>
                      </Group>
                    )}
                    <PlotFields control={control} prefix={`plots.${index}`} />
                  </Paper>
                ))}
                <Group>
                  <Button
                    variant="light"
                    leftSection={<IconPlus size={16} aria-hidden />}
                    onClick={() => plots.append(emptyPlot)}
                  >
                    {t('plot.add')}
                  </Button>
                </Group>
              </Stack>
            </Section>
          )}

          <Section title={t('form.payout')}>
            {editing ? (
              <PayoutAccount grower={grower} />
            ) : (
              <Stack gap="sm">
                <SimpleGrid cols={{ base: 1, sm: 2 }}>{digits('momoNumber', true)}</SimpleGrid>
                <Text size="sm" c="dark.4">
                  {t('form.bankOptional')}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <Controller
                    control={control}
                    name="bankName"
                    render={({ field, fieldState }) => (
                      <Select
                        label={t('form.bankName')}
                        clearable
                        data={[...BANKS]}
                        value={field.value || null}
                        onChange={(v) => {
                          field.onChange(v ?? '');
                          void form.trigger('bankAccountNumber');
                        }}
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
                        onChange={(event) => {
                          field.onChange(event);
                          void form.trigger('bankName');
                        }}
                        label={t('form.bankAccountNumber')}
                        error={text(fieldState.error)}
                      />
                    )}
                  />
                </SimpleGrid>
              </Stack>
            )}
          </Section>

          {conflict && (
            <Alert color="red" role="alert">
              {conflict}
            </Alert>
          )}
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
