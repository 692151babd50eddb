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
  type Control,
  type FieldError,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../shared/api/api-error.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { DigitsInput } from '../../../../shared/ui/DigitsInput.js';
import { notify } from '../../../../shared/ui/notify.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import { clustersQuery } from '../../../identity/api/users.js';
import { operatorOf } from '../../../wallet/model/supply-row.js';
import {
  BANKS,
  createSupplier,
  fertilizersQuery,
  fertilizerTypesQuery,
  supplierKeys,
  supplierQuery,
  updateSupplier,
  type Supplier,
} from '../api/suppliers.js';
import {
  emptyFertilizerLine,
  emptyPoint,
  emptySupplierForm,
  prefilledMomo,
  serverFieldErrors,
  supplierCreateSchema,
  supplierEditSchema,
  toSupplierForm,
  toSupplierInput,
  type SupplierFormValues,
} from '../model/supplier-form.js';

/**
 * 'Ajouter un fournisseur d'intrant' (fournisseurs-intrant/create) and 'Modifier un
 * fournisseur d'intrant' (…/update/{id}): the company and its representative, delivery
 * points, the fertilizers it supplies, and at creation the payout accounts (later changes go
 * through a request a super admin approves). Administrators choose the cluster; the cluster
 * manager registers in its own.
 */
export function SupplierFormPage({ id }: { id?: string }) {
  const { t } = useTranslation('suppliers');
  const supplier = useQuery({ ...supplierQuery(id ?? ''), enabled: Boolean(id) });
  const errorText = useErrorText();
  if (id && !supplier.data) {
    return (
      <FormFrame title={t('form.editTitle')}>
        {supplier.isError ? (
          <Alert color="red" role="alert">
            {errorText(supplier.error)}
          </Alert>
        ) : (
          <Text c="dimmed">{t('common:loading')}</Text>
        )}
      </FormFrame>
    );
  }
  return <SupplierForm supplier={supplier.data} />;
}

export function FormFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const router = useRouter();
  return (
    <Stack maw={960} mx="auto" gap="lg">
      <Group gap="sm">
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={t('back')}
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

export function Section({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

type TextField = 'denomination' | 'lastname' | 'firstname' | 'email' | 'rccm' | 'accountNumber';
type DigitField = 'nip' | 'phone' | 'ifu' | 'momoNumber';

function SupplierForm({ supplier }: { supplier: Supplier | undefined }) {
  const { t } = useTranslation('suppliers');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const editing = supplier !== undefined;
  const role = me?.role?.code;
  const choosesCluster = role === ROLES.SUPER_ADMIN || role === ROLES.ADMIN;
  const clusters = useQuery({ ...clustersQuery, enabled: choosesCluster && !editing });
  const form = useForm<SupplierFormValues>({
    resolver: zodResolver(editing ? supplierEditSchema : supplierCreateSchema) as never,
    mode: 'onChange',
    defaultValues: supplier ? toSupplierForm(supplier) : emptySupplierForm,
  });
  const { control, formState } = form;
  const points = useFieldArray({ control, name: 'locations' });
  const lines = useFieldArray({ control, name: 'fertilizers' });

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
    mutationFn: (values: SupplierFormValues) =>
      supplier
        ? updateSupplier(supplier.id, toSupplierInput(values, false))
        : createSupplier(toSupplierInput(values, true)),
    onSuccess: async (answer) => {
      notify('success', answer.message);
      await queryClient.invalidateQueries({ queryKey: supplierKeys.all });
      await navigate({ to: '/fournisseurs-intrant/show/$id', params: { id: answer.data.id } });
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

  const input = (name: TextField, required = false) => (
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
  const digits = (name: DigitField, max: number, required = false) => (
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
  const title = t(editing ? 'form.editTitle' : 'form.addTitle');

  return (
    <FormFrame title={title}>
      <form noValidate onSubmit={form.handleSubmit((v) => save.mutate(v))} aria-label={title}>
        <Stack gap="lg">
          <Section title={t('form.company')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {input('denomination')}
              {input('rccm', true)}
              {digits('ifu', 20, true)}
              {!editing && choosesCluster && (
                <Controller
                  control={control}
                  name="clusterId"
                  render={({ field, fieldState }) => (
                    <Select
                      label={t('form.cluster')}
                      searchable
                      clearable
                      placeholder={t('form.noCluster')}
                      data={(clusters.data?.data ?? []).map((c) => ({
                        value: c.id,
                        label: c.label,
                      }))}
                      value={field.value || null}
                      onChange={(v) => field.onChange(v ?? '')}
                      onBlur={field.onBlur}
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
              {digits('nip', 10, true)}
            </SimpleGrid>
          </Section>
          <Section
            title={t('form.deliveryPoints')}
            action={
              <Button
                variant="light"
                size="compact-sm"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => points.append({ ...emptyPoint })}
              >
                {t('form.addPoint')}
              </Button>
            }
          >
            <Stack>
              {points.fields.map((point, index) => (
                <Paper key={point.id} withBorder p="sm" radius="sm">
                  <Group justify="space-between" mb="xs">
                    <Text fw={600} size="sm">
                      {t('form.point', { n: index + 1 })}
                    </Text>
                    {points.fields.length > 1 && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('form.removePoint', { n: index + 1 })}
                        onClick={() => points.remove(index)}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    )}
                  </Group>
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    {(['label', 'address', 'latitude', 'longitude'] as const).map((key) => (
                      <Controller
                        key={key}
                        control={control}
                        name={`locations.${index}.${key}`}
                        render={({ field, fieldState }) => (
                          <TextInput
                            {...field}
                            label={t(`form.pointFields.${key}`)}
                            withAsterisk={key === 'label' || key === 'address'}
                            inputMode={key === 'label' || key === 'address' ? 'text' : 'decimal'}
                            error={text(fieldState.error)}
                          />
                        )}
                      />
                    ))}
                  </SimpleGrid>
                </Paper>
              ))}
            </Stack>
          </Section>
          <Section
            title={t('form.fertilizers')}
            action={
              <Button
                variant="light"
                size="compact-sm"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => lines.append({ ...emptyFertilizerLine })}
              >
                {t('form.addFertilizer')}
              </Button>
            }
          >
            <Stack>
              {lines.fields.map((line, index) => (
                <FertilizerLine
                  key={line.id}
                  control={control}
                  index={index}
                  onRemove={lines.fields.length > 1 ? () => lines.remove(index) : undefined}
                  onTypeChange={() =>
                    form.setValue(`fertilizers.${index}.fertilizerId`, '', { shouldValidate: true })
                  }
                  errorText={text}
                />
              ))}
            </Stack>
          </Section>
          <Section title={t('form.payout')}>
            {editing ? (
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <ReadOnly label={t('form.bankName')} value={supplier.accountInfo.providerName} />
                <ReadOnly
                  label={t('form.accountNumber')}
                  value={supplier.accountInfo.accountNumber}
                />
                <ReadOnly
                  label={t('form.momoNumber')}
                  value={toLocalPhone(supplier.momoInfo.momoNumber)}
                />
                <Text size="sm" c="dark.4" style={{ gridColumn: '1 / -1' }}>
                  {t('form.payoutReadOnly')}
                </Text>
              </SimpleGrid>
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
                      error={text(fieldState.error)}
                    />
                  )}
                />
                {input('accountNumber', true)}
                {digits('momoNumber', 10, true)}
              </SimpleGrid>
            )}
          </Section>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => window.history.back()}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!formState.isValid}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormFrame>
  );
}

function ReadOnly({ label, value }: { label: string; value: string | null }) {
  return <TextInput label={label} value={value ?? ''} readOnly />;
}

/** One fertilizer line: its type, then a fertilizer of that type. */
function FertilizerLine({
  control,
  index,
  onRemove,
  onTypeChange,
  errorText,
}: {
  control: Control<SupplierFormValues>;
  index: number;
  onRemove: (() => void) | undefined;
  onTypeChange: () => void;
  errorText: (error: FieldError | undefined) => string | undefined;
}) {
  const { t } = useTranslation('suppliers');
  const types = useQuery(fertilizerTypesQuery);
  const typeId = useWatch({ control, name: `fertilizers.${index}.typeId` });
  const fertilizers = useQuery({ ...fertilizersQuery(typeId), enabled: Boolean(typeId) });
  return (
    <Group align="flex-start" wrap="nowrap">
      <SimpleGrid cols={{ base: 1, sm: 2 }} style={{ flex: 1 }}>
        <Controller
          control={control}
          name={`fertilizers.${index}.typeId`}
          render={({ field, fieldState }) => (
            <Select
              label={t('form.fertilizerType', { n: index + 1 })}
              withAsterisk
              data={(types.data ?? []).map((ty) => ({ value: String(ty.id), label: ty.label }))}
              value={field.value || null}
              onChange={(v) => {
                field.onChange(v ?? '');
                onTypeChange();
              }}
              onBlur={field.onBlur}
              error={errorText(fieldState.error)}
            />
          )}
        />
        <Controller
          control={control}
          name={`fertilizers.${index}.fertilizerId`}
          render={({ field, fieldState }) => (
            <Select
              label={t('form.fertilizer', { n: index + 1 })}
              withAsterisk
              searchable
              disabled={!typeId}
              data={(fertilizers.data ?? []).map((f) => ({ value: String(f.id), label: f.label }))}
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              error={errorText(fieldState.error)}
            />
          )}
        />
      </SimpleGrid>
      {onRemove && (
        <ActionIcon
          mt={28}
          variant="subtle"
          color="red"
          aria-label={t('form.removeFertilizer', { n: index + 1 })}
          onClick={onRemove}
        >
          <IconTrash size={16} aria-hidden />
        </ActionIcon>
      )}
    </Group>
  );
}
