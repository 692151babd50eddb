import {
  Alert,
  Anchor,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../../shared/api/api-error.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../../shared/api/use-idempotency-key.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { notify } from '../../../../shared/ui/notify.js';
import { seasonQuery } from '../../model/index.js';
import {
  assignProvider,
  inputKeys,
  maxQuantityQuery,
  providerOptionsQuery,
  type ProviderOption,
} from '../api/inputs.js';
import { canAdd, providerFormSchema, type ProviderFormValues } from '../model/provider-form.js';

const optionName = (o: ProviderOption) =>
  `${o.user.firstname} ${o.user.lastname}${o.user.phone ? ` — ${toLocalPhone(o.user.phone)}` : ''}`;

/**
 * The add-input-provider form (spec §2.6): autocomplete over the providers (first name, last
 * name or phone), the season's fertilizer types and fertilizers, the quantity defaulting to
 * the computed maximum; 'Ajouter' disabled per §5. A short wallet answers the missing amount
 * with a link to fund it (/approvisionnements?showModal=1).
 */
export function AddProviderForm({
  seasonId,
  linkId,
  industrialId,
}: {
  seasonId: number;
  linkId: number;
  industrialId: string;
}) {
  const { t } = useTranslation('seasonInputs');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const season = useQuery(seasonQuery(seasonId));
  const [q, setQ] = useState('');
  const [debouncedQ] = useDebouncedValue(q.trim(), 200);
  const options = useQuery(providerOptionsQuery(debouncedQ));
  const [shortfall, setShortfall] = useState<string | null>(null);
  // The chosen fertilizer's maximum, given to the resolver as the form's context.
  const [fertilizerId, setFertilizerId] = useState<number | null>(null);
  const max = useQuery(maxQuantityQuery(seasonId, industrialId, fertilizerId));
  const limit = max.data?.maxQuantity;
  const form = useForm<ProviderFormValues, { max: number | undefined }>({
    resolver: (v, context, options) =>
      zodResolver(
        providerFormSchema(context?.max, {
          quantityMin: t('providers.quantityMin'),
          maxError: (max) => t('providers.maxError', { max }),
        }),
      )(v, context, options),
    context: { max: limit },
    mode: 'onChange',
    defaultValues: { providerId: '', typeId: null, fertilizerId: null, quantity: null },
  });
  const key = useIdempotencyKey(form);
  const values = useWatch({ control: form.control }) as ProviderFormValues;

  /** A fertilizer chosen: the quantity defaults to its maximum (§2.6). */
  const chooseFertilizer = async (id: number | null) => {
    setFertilizerId(id);
    form.setValue('quantity', null);
    if (id === null) return;
    const answer = await queryClient.fetchQuery(maxQuantityQuery(seasonId, industrialId, id));
    form.setValue('quantity', answer.maxQuantity, { shouldValidate: true });
  };

  const lines = season.data?.fertilizers ?? [];
  const types = [
    ...new Map(lines.map((l) => [l.typeId, l.typeLabel ?? String(l.typeId)])).entries(),
  ];
  const fertilizers = lines.filter((l) => values.typeId === null || l.typeId === values.typeId);

  const add = useMutation({
    mutationFn: (v: ProviderFormValues) =>
      assignProvider(
        {
          userClusterId: linkId,
          inputProviderId: v.providerId,
          fertilizerId: v.fertilizerId!,
          quantity: v.quantity!,
        },
        key.current(),
      ),
    onSuccess: async () => {
      key.renew();
      setShortfall(null);
      const picked = options.data?.data.find((o) => o.id === values.providerId);
      notify(
        'success',
        t('providers.added', {
          name: picked ? `${picked.user.firstname} ${picked.user.lastname}` : '',
        }),
      );
      form.reset({
        providerId: '',
        typeId: values.typeId,
        fertilizerId: values.fertilizerId,
        quantity: null,
      });
      setQ('');
      await queryClient.invalidateQueries({ queryKey: inputKeys.all });
    },
    onError: (error) => {
      if (isApiError(error, 422) && typeof error.data.missingAmount === 'number') {
        setShortfall(error.message);
        return;
      }
      notify('error', errorText(error));
    },
  });

  const data = (options.data?.data ?? []).map((o) => ({ value: o.id, label: optionName(o) }));
  const quantityError = form.formState.errors.quantity?.message;

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={form.handleSubmit((v) => add.mutate(v))} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('providers.formTitle')}
          </Title>
          <Controller
            control={form.control}
            name="providerId"
            render={({ field }) => (
              <Select
                label={t('providers.provider')}
                placeholder={t('providers.providerPlaceholder')}
                searchable
                searchValue={q}
                onSearchChange={setQ}
                filter={({ options: all }) => all}
                data={data}
                nothingFoundMessage={
                  options.isFetching ? t('common:loading') : t('providers.noProvider')
                }
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
              />
            )}
          />
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="typeId"
              render={({ field }) => (
                <Select
                  label={t('providers.fertilizerType')}
                  placeholder={t('providers.fertilizerTypePlaceholder')}
                  data={types.map(([id, label]) => ({ value: String(id), label }))}
                  value={field.value === null ? null : String(field.value)}
                  onChange={(value) => {
                    field.onChange(value ? Number(value) : null);
                    form.setValue('fertilizerId', null);
                    void chooseFertilizer(null);
                  }}
                  clearable
                />
              )}
            />
            <Controller
              control={form.control}
              name="fertilizerId"
              render={({ field }) => (
                <Select
                  label={t('providers.fertilizer')}
                  placeholder={t('providers.fertilizerPlaceholder')}
                  data={fertilizers.map((l) => ({
                    value: String(l.fertilizerId),
                    label: l.label ?? String(l.fertilizerId),
                  }))}
                  value={field.value === null ? null : String(field.value)}
                  onChange={(value) => {
                    const id = value ? Number(value) : null;
                    field.onChange(id);
                    void chooseFertilizer(id);
                  }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="quantity"
              render={({ field }) => (
                <NumberInput
                  label={t('providers.quantity')}
                  min={0}
                  allowDecimal={false}
                  thousandSeparator=" "
                  value={field.value ?? ''}
                  onChange={(value) => field.onChange(typeof value === 'number' ? value : null)}
                  description={
                    max.data ? t('providers.maxHint', { max: max.data.maxQuantity }) : undefined
                  }
                  error={quantityError}
                />
              )}
            />
          </Group>
          {shortfall && (
            <Alert color="orange" role="alert">
              <Text size="sm">{shortfall}</Text>
              <Anchor
                renderRoot={(props) => (
                  <Link {...props} to="/approvisionnements" search={{ showModal: 1 }} />
                )}
              >
                {t('providers.shortfallLink')}
              </Anchor>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={add.isPending}
              disabled={!canAdd(values, max.data?.maxQuantity)}
            >
              {t('providers.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
