import { Button, Group, Select, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { aggregatorsQuery, createFinancing } from '../api/financing.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { financingSchema, type FinancingValues } from '../model/forms.js';
import { fullName } from '../model/types.js';

const EMPTY: FinancingValues = { aggregatorId: '', amount: null };

/** 'Financer un agrégateur': aggregator select and amount. */
export function FinancingModal({
  opened,
  onClose,
  myId,
}: {
  opened: boolean;
  onClose: () => void;
  myId: string;
}) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const invalidate = useInvalidateWallet();
  const form = useForm<FinancingValues>({
    resolver: zodResolver(financingSchema),
    mode: 'onChange',
    defaultValues: EMPTY,
  });
  // Another aggregator or amount is another financing: it gets a new key.
  const key = useIdempotencyKey(form);
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const aggregators = (useQuery(aggregatorsQuery(debounced)).data ?? []).filter(
    (a) => a.id !== myId,
  );
  const close = () => {
    onClose();
    form.reset(EMPTY);
    setQ('');
    key.renew();
  };
  const fund = useMutation({
    mutationFn: (values: FinancingValues) =>
      createFinancing({ aggregatorId: values.aggregatorId, amount: values.amount! }, key.current()),
    onSuccess: async () => {
      notify('success', t('financings.success'));
      await invalidate();
      close();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened={opened} onClose={close} title={t('financings.new')}>
      <form onSubmit={form.handleSubmit((values) => fund.mutate(values))} noValidate>
        <Stack>
          <Controller
            control={form.control}
            name="aggregatorId"
            render={({ field }) => (
              <Select
                label={t('financings.aggregator')}
                placeholder={t('financings.aggregatorPlaceholder')}
                withAsterisk
                searchable
                searchValue={q}
                onSearchChange={setQ}
                filter={({ options }) => options}
                data={aggregators.map((a) => ({
                  value: a.id,
                  label: [fullName(a), a.organization?.denomination].filter(Boolean).join(' · '),
                }))}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                onBlur={field.onBlur}
              />
            )}
          />
          <Controller
            control={form.control}
            name="amount"
            render={({ field, fieldState }) => (
              <MoneyInput
                label={t('financings.amount')}
                withAsterisk
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldError(fieldState.error)}
              />
            )}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={!form.formState.isValid} loading={fund.isPending}>
              {t('financings.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
