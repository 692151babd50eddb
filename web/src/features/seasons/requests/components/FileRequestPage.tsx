import {
  Alert,
  Button,
  Grid,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../../shared/api/use-idempotency-key.js';
import { ApiError } from '../../../../shared/api/api-error.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { formatNumber } from '../../../../shared/format/money.js';
import { MoneyInput } from '../../../../shared/ui/MoneyInput.js';
import { notify } from '../../../../shared/ui/notify.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import { fileRequest, filingOptionsQuery, requestKeys } from '../api/requests.js';
import {
  REQUEST_TYPES,
  fileBody,
  fileSchema,
  type FileForm,
  type RequestType,
  type RequestsSearch,
} from '../model/requests.js';
import { RequestsList } from './RequestsList.js';

const EMPTY: FileForm = {
  type: 'INPUT',
  growerId: '',
  seasonId: '',
  fertilizerId: '',
  quantity: undefined,
  amount: undefined,
  sfdUserId: '',
};

/**
 * 'Faire une demande' (the spec shows no filing screen): a grower files for itself, a
 * cooperative's user for one of its growers — inputs of the season (kg; the estimate is
 * kg × the season's unit amount), a pineapple advance (amount, kg of pineapple to deliver) or
 * a social financing asked of an SFD. Below, the requests sent and their status.
 */
export function FileRequestPage() {
  const { t } = useTranslation('seasonRequests');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const isGrower = me?.role?.code === ROLES.GROWER;
  const options = useQuery(filingOptionsQuery);
  const form = useForm<FileForm>({
    resolver: zodResolver(fileSchema),
    defaultValues: EMPTY,
  });
  const key = useIdempotencyKey(form);
  const [type, seasonId, fertilizerId, quantity] = useWatch({
    control: form.control,
    name: ['type', 'seasonId', 'fertilizerId', 'quantity'],
  });
  const growers = options.data?.growers ?? [];
  const seasons = options.data?.seasons ?? [];
  const season = seasons.find((s) => String(s.id) === seasonId);
  const line = season?.fertilizers.find((f) => String(f.fertilizerId) === fertilizerId);
  // A grower files for itself; a single season is chosen for the user.
  const loaded = options.data;
  useEffect(() => {
    if (!loaded) return;
    if (isGrower && loaded.growers.length === 1 && !form.getValues('growerId')) {
      form.setValue('growerId', loaded.growers[0]!.id);
    }
    if (loaded.seasons.length === 1 && !form.getValues('seasonId')) {
      form.setValue('seasonId', String(loaded.seasons[0]!.id));
    }
  }, [isGrower, loaded, form]);

  const save = useMutation({
    mutationFn: (values: FileForm) => fileRequest(fileBody(values), key.current()),
    onSuccess: async (answer) => {
      key.renew();
      notify('success', t('file.success', { reference: answer.reference }));
      form.reset({ ...form.getValues(), quantity: undefined, amount: undefined });
      await queryClient.invalidateQueries({ queryKey: requestKeys.all });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) {
        for (const [field, message] of Object.entries(error.fields)) {
          const name = field === 'quantityKg' ? 'quantity' : field;
          if (name in EMPTY) form.setError(name as keyof FileForm, { message });
        }
      }
    },
  });

  const [listType, setListType] = useState<RequestType>('INPUT');
  const [search, setSearch] = useState<RequestsSearch>({});

  return (
    <>
      <PageTitle>{t('file.title')}</PageTitle>
      <Paper withBorder p="md" radius="md" mb="lg" maw={760}>
        <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
          <Stack>
            <Text c="dark.5">{t('file.intro')}</Text>
            <Controller
              control={form.control}
              name="type"
              render={({ field }) => (
                <Stack gap={4}>
                  <Text component="span" size="sm" fw={500} id="request-type-label">
                    {t('file.type')}
                  </Text>
                  <SegmentedControl
                    aria-labelledby="request-type-label"
                    value={field.value}
                    onChange={(value) => {
                      field.onChange(value as RequestType);
                      form.clearErrors();
                    }}
                    data={REQUEST_TYPES.map((value) => ({
                      value,
                      label: t(`typeTabsLabels.${value}`),
                    }))}
                  />
                </Stack>
              )}
            />
            {options.isSuccess && seasons.length === 0 && type !== 'SOCIAL' && (
              <Alert color="orange">{t('file.noSeason')}</Alert>
            )}
            <Grid>
              {!isGrower && (
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Controller
                    control={form.control}
                    name="growerId"
                    render={({ field, fieldState }) => (
                      <Select
                        label={t('file.grower')}
                        placeholder={t('file.growerPlaceholder')}
                        withAsterisk
                        searchable
                        data={growers.map((g) => ({
                          value: g.id,
                          label: `${g.firstname} ${g.lastname} (${g.reference})`,
                        }))}
                        value={field.value || null}
                        onChange={(v) => field.onChange(v ?? '')}
                        error={fieldError(fieldState.error)}
                      />
                    )}
                  />
                </Grid.Col>
              )}
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <Controller
                  control={form.control}
                  name="seasonId"
                  render={({ field, fieldState }) => (
                    <Select
                      label={t('file.season')}
                      placeholder={t('file.seasonPlaceholder')}
                      withAsterisk
                      data={seasons.map((s) => ({ value: String(s.id), label: s.label }))}
                      value={field.value || null}
                      onChange={(v) => field.onChange(v ?? '')}
                      error={fieldError(fieldState.error)}
                    />
                  )}
                />
              </Grid.Col>
              {type === 'INPUT' && (
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Controller
                    control={form.control}
                    name="fertilizerId"
                    render={({ field, fieldState }) => (
                      <Select
                        label={t('file.fertilizer')}
                        placeholder={t('file.fertilizerPlaceholder')}
                        withAsterisk
                        data={(season?.fertilizers ?? []).map((f) => ({
                          value: String(f.fertilizerId),
                          label: t('file.fertilizerOption', {
                            label: f.label,
                            type: f.typeLabel,
                            unit: formatNumber(f.unitAmount),
                          }),
                        }))}
                        value={field.value || null}
                        onChange={(v) => field.onChange(v ?? '')}
                        error={fieldError(fieldState.error)}
                      />
                    )}
                  />
                </Grid.Col>
              )}
              {type === 'SOCIAL' && (
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Controller
                    control={form.control}
                    name="sfdUserId"
                    render={({ field, fieldState }) => (
                      <Select
                        label={t('file.sfd')}
                        placeholder={t('file.sfdPlaceholder')}
                        withAsterisk
                        data={(options.data?.sfds ?? []).map((s) => ({
                          value: s.userId,
                          label: s.name,
                        }))}
                        value={field.value || null}
                        onChange={(v) => field.onChange(v ?? '')}
                        error={fieldError(fieldState.error)}
                      />
                    )}
                  />
                </Grid.Col>
              )}
              {(type === 'PINEAPLE' || type === 'SOCIAL') && (
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Controller
                    control={form.control}
                    name="amount"
                    render={({ field, fieldState }) => (
                      <MoneyInput
                        label={t('file.amount')}
                        withAsterisk
                        value={field.value ?? null}
                        onChange={(v) => field.onChange(v ?? undefined)}
                        error={fieldError(fieldState.error)}
                      />
                    )}
                  />
                </Grid.Col>
              )}
              {(type === 'INPUT' || type === 'PINEAPLE') && (
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Controller
                    control={form.control}
                    name="quantity"
                    render={({ field, fieldState }) => (
                      <MoneyInput
                        label={t(
                          type === 'INPUT' ? 'file.quantityInput' : 'file.quantityPineapple',
                        )}
                        rightSection="Kg"
                        withAsterisk
                        value={field.value ?? null}
                        onChange={(v) => field.onChange(v ?? undefined)}
                        error={fieldError(fieldState.error)}
                      />
                    )}
                  />
                </Grid.Col>
              )}
            </Grid>
            {type === 'INPUT' && line && quantity !== undefined && quantity > 0 && (
              <Text fw={500} role="status">
                {t('file.estimate', { amount: formatNumber(quantity * line.unitAmount) })}
              </Text>
            )}
            {save.isError && (
              <Alert color="red" role="alert">
                {errorText(save.error)}
              </Alert>
            )}
            <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
              {t('file.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
      {me && (
        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="md">
            {t('file.mine')}
          </Title>
          <RequestsList
            key={listType}
            type={listType}
            owner={{ userId: me.id }}
            search={search}
            onSearchChange={(next) => setSearch((prev) => ({ ...prev, ...next }))}
            canDecide={false}
            header={
              <SegmentedControl
                mb="md"
                aria-label={t('listTypeTabs')}
                value={listType}
                onChange={(value) => {
                  setListType(value as RequestType);
                  setSearch({});
                }}
                data={REQUEST_TYPES.map((value) => ({
                  value,
                  label: t(`typeTabsLabels.${value}`),
                }))}
              />
            }
          />
        </Paper>
      )}
    </>
  );
}
