import { Anchor, Button, Group, Paper, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../../shared/api/api-error.js';
import { api } from '../../../../shared/api/client.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../../shared/api/use-idempotency-key.js';
import type { ApiResponse } from '../../../../shared/api/types.js';
import { toPage } from '../../../../shared/auth/user.js';
import { DateField } from '../../../../shared/ui/DateField.js';
import { FormAlert } from '../../../../shared/ui/FormAlert.js';
import { MoneyInput } from '../../../../shared/ui/MoneyInput.js';
import { notify } from '../../../../shared/ui/notify.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import {
  PINEAPPLE_TYPES,
  growerQuery,
  type GrowerRow,
  type Plot,
} from '../../../actors/growers/api/growers.js';
import {
  contractKeys,
  createDeliveryContract,
  type ContractAnswer,
} from '../api/delivery-contracts.js';
import {
  contractFormSchema,
  emptyContractForm,
  parseDay,
  quantityFromEstimate,
  today,
  type ContractFormInput,
  type ContractFormValues,
} from '../model/contract-form.js';
import { ContractCreatedModal, InsufficientBalanceModal } from './CreateModals.js';
import { formatDecimal } from '../../../../shared/format/number.js';

/** §9: the growers' autocomplete asks page 1, limit 20. */
const AUTOCOMPLETE_LIMIT = 20;

const growerLabel = (g: GrowerRow) =>
  `${g.user.firstname} ${g.user.lastname}${g.user.phone ? ` (${g.user.phone})` : ''}`;

/**
 * createContratLivraisonSingle (§2.5, §5 delivery form): grower (autocomplete), pineapple
 * type, plot (picking one pre-fills the quantity with its estimated production and sets its
 * type), quantity in tonnes, amount in F CFA, delivery date (today + 5 months). The submit
 * carries an Idempotency-Key (the amount is held on the wallet); success shows a modal, a
 * 422 the insufficient-balance modal ('Il manque <amount> FCFA', 'OK', 'Approvisionner le
 * wallet').
 */
export function CreateDeliveryContractPage() {
  const { t } = useTranslation('contracts');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<ContractFormInput, unknown, ContractFormValues>({
    resolver: zodResolver(contractFormSchema()),
    mode: 'onChange',
    defaultValues: emptyContractForm(),
  });
  // One key per submitted contract: any change of what is sent renews it.
  const key = useIdempotencyKey(form);
  const [created, setCreated] = useState<ContractAnswer | null>(null);
  const [missing, setMissing] = useState<number | null>(null);

  const [growerSearch, setGrowerSearch] = useState('');
  const [picked, setPicked] = useState<GrowerRow | null>(null);
  const [debounced] = useDebouncedValue(growerSearch, 300);
  const q = picked && debounced === growerLabel(picked) ? '' : debounced.trim();
  const growers = useQuery({
    queryKey: ['growers', 'autocomplete', q],
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/grower'>>('/grower', {
          query: { page: 1, limit: AUTOCOMPLETE_LIMIT, q: q || undefined },
        }),
      ),
  });
  const growerId = useWatch({ control: form.control, name: 'growerId' });
  const productType = useWatch({ control: form.control, name: 'productType' });
  const detail = useQuery({ ...growerQuery(growerId), enabled: Boolean(growerId) });
  const plots: Plot[] = useMemo(
    () =>
      (detail.data?.products ?? []).filter((p) => !productType || p.productType === productType),
    [detail.data, productType],
  );

  const growerOptions = useMemo(() => {
    const found = growers.data?.data ?? [];
    const all = picked && !found.some((g) => g.id === picked.id) ? [picked, ...found] : found;
    return all.map((g) => ({ value: g.id, label: growerLabel(g) }));
  }, [growers.data, picked]);

  const create = useMutation({
    mutationFn: (values: ContractFormValues) =>
      createDeliveryContract(
        {
          growerId: values.growerId,
          productId: values.productId,
          quantity: Number(values.quantity),
          amount: values.amount!,
          deliveryDate: values.deliveryDate,
        },
        key.current(),
      ),
    onSuccess: async (answer) => {
      key.renew();
      setCreated(answer);
      await queryClient.invalidateQueries({ queryKey: contractKeys.all });
    },
    onError: (error) => {
      if (isApiError(error, 422) && typeof error.data.missingAmount === 'number') {
        // A definite answer: nothing was written; the retry after funding is a new submit.
        key.renew();
        setMissing(error.data.missingAmount);
        return;
      }
      if (isApiError(error, 400) && error.fields) {
        for (const [name, message] of Object.entries(error.fields)) {
          if (name in form.getValues()) {
            form.setError(name as keyof ContractFormInput, { type: 'server', message });
          }
        }
      }
      if (!isApiError(error, 400) && !isApiError(error, 422)) notify('error', errorText(error));
    },
  });

  const { errors, isValid } = form.formState;
  const serverError =
    create.isError &&
    (isApiError(create.error, 400) ||
      (isApiError(create.error, 422) && typeof create.error.data.missingAmount !== 'number'))
      ? errorText(create.error)
      : null;

  return (
    <>
      <Anchor component={Link} to="/contrats/livraison" mb="sm" c="dark.6" display="inline-block">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden />
          {t('detail.back')}
        </Group>
      </Anchor>
      <PageTitle>{t('create.title')}</PageTitle>
      <Paper withBorder p="lg" radius="md" maw={880}>
        <form onSubmit={form.handleSubmit((values) => create.mutate(values))} noValidate>
          <Stack>
            <FormAlert message={serverError} />
            <Controller
              control={form.control}
              name="growerId"
              render={({ field }) => (
                <Select
                  label={t('create.grower')}
                  withAsterisk
                  searchable
                  clearable
                  placeholder={t('create.growerPlaceholder')}
                  nothingFoundMessage={
                    growers.isFetching ? t('common:loading') : t('create.noGrower')
                  }
                  data={growerOptions}
                  filter={({ options }) => options}
                  searchValue={growerSearch}
                  onSearchChange={setGrowerSearch}
                  value={field.value || null}
                  onChange={(value) => {
                    const grower = (growers.data?.data ?? []).find((g) => g.id === value) ?? null;
                    setPicked(grower ?? (value ? picked : null));
                    field.onChange(value ?? '');
                    form.setValue('productId', '', { shouldValidate: false });
                    form.setValue('quantity', '', { shouldValidate: false });
                  }}
                  onBlur={field.onBlur}
                  name={field.name}
                  error={fieldError(errors.growerId)}
                  data-testid="contract-grower"
                />
              )}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Controller
                control={form.control}
                name="productType"
                render={({ field }) => (
                  <Select
                    label={t('create.productType')}
                    placeholder={t('create.productTypePlaceholder')}
                    clearable
                    data={PINEAPPLE_TYPES.map((type) => ({
                      value: type,
                      label: t(`types.${type}`),
                    }))}
                    value={field.value || null}
                    onChange={(value) => {
                      field.onChange(value ?? '');
                      const plot = detail.data?.products?.find(
                        (p) => p.id === form.getValues('productId'),
                      );
                      if (value && plot && plot.productType !== value) {
                        form.setValue('productId', '', { shouldValidate: true });
                      }
                    }}
                    onBlur={field.onBlur}
                    name={field.name}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="productId"
                render={({ field }) => (
                  <Select
                    label={t('create.plot')}
                    withAsterisk
                    disabled={!growerId}
                    placeholder={
                      detail.isLoading ? t('common:loading') : t('create.plotPlaceholder')
                    }
                    nothingFoundMessage={t('create.noPlot')}
                    data={plots.map((p) => ({
                      value: p.id,
                      label: t('create.plotOption', {
                        name: p.location,
                        type: t(`types.${p.productType}`),
                        area: formatDecimal(p.areaSown, 4),
                        estimate:
                          p.estimatedProduction == null
                            ? '—'
                            : formatDecimal(p.estimatedProduction),
                      }),
                    }))}
                    value={field.value || null}
                    onChange={(value) => {
                      field.onChange(value ?? '');
                      const plot = plots.find((p) => p.id === value);
                      if (plot) {
                        form.setValue('productType', plot.productType);
                        form.setValue('quantity', quantityFromEstimate(plot.estimatedProduction), {
                          shouldValidate: true,
                        });
                      }
                    }}
                    onBlur={field.onBlur}
                    name={field.name}
                    error={fieldError(errors.productId)}
                    data-testid="contract-plot"
                  />
                )}
              />
              <TextInput
                label={t('create.quantity')}
                withAsterisk
                inputMode="decimal"
                description={t('create.quantityHint')}
                error={fieldError(errors.quantity)}
                {...form.register('quantity')}
              />
              <Controller
                control={form.control}
                name="amount"
                render={({ field }) => (
                  <MoneyInput
                    label={t('create.amount')}
                    withAsterisk
                    value={field.value ?? null}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    name={field.name}
                    error={fieldError(errors.amount)}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="deliveryDate"
                render={({ field }) => (
                  <DateField
                    label={t('create.deliveryDate')}
                    withAsterisk
                    minDate={today()}
                    dateParser={parseDay}
                    clearable={false}
                    value={field.value || null}
                    onChange={(value) => field.onChange(value ?? '')}
                    onBlur={field.onBlur}
                    name={field.name}
                    error={fieldError(errors.deliveryDate)}
                  />
                )}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={create.isPending} disabled={!isValid}>
                {t('create.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <InsufficientBalanceModal
        missingAmount={missing}
        onClose={() => setMissing(null)}
        onFund={() => void navigate({ to: '/approvisionnements', search: { showModal: 1 } })}
      />
      <ContractCreatedModal
        created={created}
        onView={(id) => void navigate({ to: '/contrats/livraison/show/$id', params: { id } })}
        onDone={() => void navigate({ to: '/contrats/livraison' })}
      />
    </>
  );
}
