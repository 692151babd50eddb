import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { formatNumber } from '../../../shared/format/money.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { aggregatorsQuery, createFinancing } from '../api/financing.js';
import { useAmountLimits } from '../hooks/use-amount-limits.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { refusalMessage } from '../model/errors.js';
import { financingSchemaWithin, type FinancingValues } from '../model/forms.js';
import { fullName, type Aggregator } from '../model/types.js';

const EMPTY: FinancingValues = { aggregatorId: '', amount: null };

const labelOf = (a: Aggregator) =>
  [fullName(a), a.organization?.denomination].filter(Boolean).join(' · ');

/**
 * 'Financer un agrégateur': aggregator select and amount, then a confirmation naming both
 * (money leaves the wallet only after 'Oui, financer'), as 'Transférer' does.
 */
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
  // The ceiling and the available balance are checked here, before 'Oui, financer'.
  const limits = useAmountLimits(true);
  const [schema] = useState(() => financingSchemaWithin(limits.limitsOf));
  const form = useForm<FinancingValues>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: EMPTY,
  });
  // Limits loaded or changed (a push moved the balance): the amount typed is checked again.
  useEffect(() => {
    if (form.getValues('amount') !== null) void form.trigger('amount');
  }, [form, limits.version]);
  // Another aggregator or amount is another financing: it gets a new key.
  const key = useIdempotencyKey(form);
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  // The previous search's results stay listed while the next one loads: a pick always lands on
  // an option of `aggregators` (without, the list emptied while 'Hounk' was searched and a pick
  // made on the options still on screen found nothing, the submit button staying disabled).
  const aggregators = (
    useQuery({ ...aggregatorsQuery(debounced), placeholderData: keepPreviousData }).data ?? []
  ).filter((a) => a.id !== myId);
  // The chosen aggregator, kept once picked (the search results change as one types).
  const [chosen, setChosen] = useState<Aggregator | null>(null);
  const amount = useWatch({ control: form.control, name: 'amount' });
  const close = () => {
    onClose();
    form.reset(EMPTY);
    setQ('');
    setChosen(null);
    setStep('form');
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
    // The server's reason for any refusal (4xx), else the catalogue's generic text.
    onError: (error) => notify('error', refusalMessage(error) ?? errorText(error)),
  });
  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={step === 'confirm' ? t('financings.confirmTitle') : t('financings.new')}
    >
      {step === 'confirm' ? (
        <Stack>
          <Text data-testid="financing-confirm">
            {t('financings.confirmText', {
              amount: formatNumber(amount ?? 0),
              aggregator: chosen ? fullName(chosen) : '',
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={fund.isPending}>
              {t('common:cancel')}
            </Button>
            <Button
              loading={fund.isPending}
              onClick={form.handleSubmit((values) => fund.mutate(values))}
            >
              {t('financings.confirm')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.handleSubmit(() => setStep('confirm'))} noValidate>
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
                  data={[
                    // The chosen one stays selectable while another search is typed.
                    ...(chosen && !aggregators.some((a) => a.id === chosen.id) ? [chosen] : []),
                    ...aggregators,
                  ].map((a) => ({ value: a.id, label: labelOf(a) }))}
                  value={field.value || null}
                  onChange={(v) => {
                    setChosen(
                      aggregators.find((a) => a.id === v) ?? (v === chosen?.id ? chosen : null),
                    );
                    field.onChange(v ?? '');
                  }}
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
                  error={fieldError(fieldState.error, limits.values(field.value))}
                />
              )}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common:cancel')}
              </Button>
              <Button type="submit" disabled={!form.formState.isValid || !chosen}>
                {t('financings.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AppModal>
  );
}
