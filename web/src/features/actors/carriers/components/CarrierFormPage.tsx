import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import {
  Controller,
  useFieldArray,
  useForm,
  useWatch,
  type FieldError,
  type Path,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../shared/api/api-error.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { DigitsInput } from '../../../../shared/ui/DigitsInput.js';
import { notify } from '../../../../shared/ui/notify.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import { clustersQuery } from '../../../identity/api/users.js';
import { LocationCascade } from '../../../locations/index.js';
import { operatorOf } from '../../../wallet/model/supply-row.js';
import { BANKS } from '../../cooperatives/api/cooperatives.js';
import { FormFrame, Section } from '../../cooperatives/components/CooperativeFormPage.js';
import {
  CAR_TYPES,
  carrierKeys,
  carrierQuery,
  createCarrier,
  DEFAULT_CAPACITY_KG,
  updateCarrier,
  type Carrier,
} from '../api/carriers.js';
import {
  carrierCreateSchema,
  carrierEditSchema,
  emptyCar,
  emptyCarrierForm,
  isCarType,
  serverFieldErrors,
  toCarrierForm,
  toCreateInput,
  toUpdateInput,
  type CarrierFormValues,
} from '../model/carrier-form.js';
import { CarrierPayout } from './CarrierPayout.js';

/**
 * 'Ajouter un transporteur' (transporteurs/create) and 'Modifier un transporteur'
 * (…/edit/{id}): the person (username = phone), the address with the location cascade, the
 * vehicles (type and registration required, capacity defaulting to the type's), and at
 * creation the payout accounts (read-only afterwards).
 */
export function CarrierFormPage({ id }: { id?: string }) {
  const { t } = useTranslation('carriers');
  const carrier = useQuery({ ...carrierQuery(id ?? ''), enabled: Boolean(id) });
  const errorText = useErrorText();
  if (id && !carrier.data) {
    return (
      <FormFrame title={t('form.editTitle')}>
        {carrier.isError ? (
          <Alert color="red" role="alert">
            {errorText(carrier.error)}
          </Alert>
        ) : (
          <Text c="dimmed">{t('common:loading')}</Text>
        )}
      </FormFrame>
    );
  }
  return <CarrierForm carrier={carrier.data} />;
}

function CarrierForm({ carrier }: { carrier: Carrier | undefined }) {
  const { t } = useTranslation('carriers');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const editing = carrier !== undefined;
  const role = me?.role?.code;
  const choosesCluster = role === ROLES.SUPER_ADMIN || role === ROLES.ADMIN;
  const clusters = useQuery({ ...clustersQuery, enabled: choosesCluster && !editing });
  const form = useForm<CarrierFormValues>({
    resolver: zodResolver(editing ? carrierEditSchema : carrierCreateSchema) as never,
    mode: 'onChange',
    defaultValues: carrier ? toCarrierForm(carrier) : emptyCarrierForm,
  });
  const { control, formState } = form;
  const cars = useFieldArray({ control, name: 'cars' });

  const phone = useWatch({ control, name: 'phone' });
  const momo = useWatch({ control, name: 'momoNumber' });
  const momoTyped = useRef(false);
  useEffect(() => {
    if (editing || momoTyped.current) return;
    form.setValue('momoNumber', (phone ?? '').trim(), { shouldValidate: (phone ?? '') !== '' });
  }, [phone, editing, form]);

  const text = (error: FieldError | undefined) =>
    error?.type === 'server' ? error.message : fieldError(error);

  const save = useMutation({
    mutationFn: (values: CarrierFormValues) =>
      carrier
        ? updateCarrier(carrier.id, toUpdateInput(values))
        : createCarrier(toCreateInput(values)),
    onSuccess: async (saved) => {
      notify('success', t(editing ? 'form.updated' : 'form.added'));
      await queryClient.invalidateQueries({ queryKey: carrierKeys.all });
      await navigate({ to: '/transporteurs/show/$id', params: { id: saved.id } });
    },
    onError: (error) => {
      notify('error', errorText(error));
      if (error instanceof ApiError) {
        for (const [field, message] of serverFieldErrors(error)) {
          form.setError(field as Path<CarrierFormValues>, { type: 'server', message });
        }
      }
    },
  });

  const input = (name: 'lastname' | 'firstname' | 'email' | 'street', required = false) => (
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
  const digits = (name: 'nip' | 'phone' | 'momoNumber', required = false) => (
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
            name === 'momoNumber' && operatorOf(momo ?? '')
              ? t('form.operator', { operator: operatorOf(momo ?? '') })
              : name === 'phone'
                ? t('form.phoneIsUsername')
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
          <Section title={t('form.personal')}>
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {input('lastname', true)}
                {input('firstname', true)}
                {digits('nip')}
                {digits('phone', true)}
                {input('email')}
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
              <Text fw={600} size="sm" mt="xs">
                {t('form.address')}
              </Text>
              <LocationCascade control={control} prefix="address" required />
              {input('street', true)}
            </Stack>
          </Section>

          <Section title={t('form.vehicles')}>
            <Stack gap="md">
              {cars.fields.map((car, index) => (
                <fieldset key={car.id} className="plot-fieldset">
                  <Group justify="space-between" mb="xs">
                    <legend>
                      <Text fw={600}>{t('vehicles.title', { index: index + 1 })}</Text>
                    </legend>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('vehicles.remove', { index: index + 1 })}
                      onClick={() => cars.remove(index)}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Group>
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    <Controller
                      control={control}
                      name={`cars.${index}.carType`}
                      render={({ field, fieldState }) => (
                        <Select
                          label={t('vehicles.type')}
                          withAsterisk
                          data={CAR_TYPES.map((type) => ({
                            value: type,
                            label: t(`carTypes.${type}`),
                          }))}
                          value={field.value || null}
                          onChange={(v) => {
                            field.onChange(v ?? '');
                            const capacity = form.getValues(`cars.${index}.capacity`);
                            if (v && isCarType(v) && !capacity) {
                              form.setValue(
                                `cars.${index}.capacity`,
                                String(DEFAULT_CAPACITY_KG[v]),
                                {
                                  shouldValidate: true,
                                },
                              );
                            }
                          }}
                          onBlur={field.onBlur}
                          name={field.name}
                          error={text(fieldState.error)}
                        />
                      )}
                    />
                    <Controller
                      control={control}
                      name={`cars.${index}.registration`}
                      render={({ field, fieldState }) => (
                        <TextInput
                          {...field}
                          label={t('vehicles.registration')}
                          withAsterisk
                          error={text(fieldState.error)}
                        />
                      )}
                    />
                    <Controller
                      control={control}
                      name={`cars.${index}.emptyWeight`}
                      render={({ field, fieldState }) => (
                        <DigitsInput
                          {...field}
                          label={t('vehicles.emptyWeight')}
                          maxLength={6}
                          error={text(fieldState.error)}
                        />
                      )}
                    />
                    <Controller
                      control={control}
                      name={`cars.${index}.capacity`}
                      render={({ field, fieldState }) => (
                        <DigitsInput
                          {...field}
                          label={t('vehicles.capacityLabel')}
                          maxLength={6}
                          error={text(fieldState.error)}
                        />
                      )}
                    />
                  </SimpleGrid>
                </fieldset>
              ))}
              <Group>
                <Button
                  variant="light"
                  leftSection={<IconPlus size={16} aria-hidden />}
                  onClick={() => cars.append(emptyCar)}
                >
                  {t('vehicles.add')}
                </Button>
              </Group>
            </Stack>
          </Section>

          <Section title={t('form.payout')}>
            {editing ? (
              <CarrierPayout carrier={carrier} />
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
                {digits('momoNumber', true)}
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
