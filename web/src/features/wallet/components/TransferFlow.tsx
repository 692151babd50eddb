import { Alert, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import type { User } from '../../../shared/auth/user.js';
import { formatNumber } from '../../../shared/format/money.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { makeTransfer, recipientsQuery } from '../api/transfers.js';
import { useAmountLimits } from '../hooks/use-amount-limits.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { refusalMessage } from '../model/errors.js';
import { transferSchemaWithin, type TransferValues } from '../model/forms.js';
import { fullName } from '../model/types.js';

type Step = 'search' | 'info' | 'confirm' | 'success';

const EMPTY: TransferValues = { recipient: null, amount: null, reason: '' };

/** 'Transférer': search the recipient, amount and reason, confirm, success. */
export function TransferFlow({
  opened,
  onClose,
  me,
}: {
  opened: boolean;
  onClose: () => void;
  me: User;
}) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const invalidate = useInvalidateWallet();
  // The ceiling and the available balance are checked here, before 'Oui, envoyer'.
  const limits = useAmountLimits(true);
  const [schema] = useState(() => transferSchemaWithin(limits.limitsOf));
  const form = useForm<TransferValues>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: EMPTY,
  });
  // Limits loaded or changed (a push moved the balance): the amount typed is checked again.
  useEffect(() => {
    if (form.getValues('amount') !== null) void form.trigger('amount');
  }, [form, limits.version]);
  // Another recipient, amount or reason is another transfer: it gets a new key.
  const key = useIdempotencyKey(form);
  const [step, setStep] = useState<Step>('search');
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 250);
  const results = useQuery(recipientsQuery(debounced));
  const options = (results.data ?? []).filter((r) => r.id !== me.id);
  const { errors, isValid } = form.formState;
  const [recipient, amount] = useWatch({ control: form.control, name: ['recipient', 'amount'] });
  const name = recipient ? fullName(recipient) : '';

  const transfer = useMutation({
    mutationFn: (values: TransferValues) =>
      makeTransfer(
        {
          source: me.walletId ?? me.id,
          destination: values.recipient!.id,
          amount: values.amount!,
          reason: values.reason.trim(),
        },
        key.current(),
      ),
    onSuccess: async () => {
      key.renew();
      setStep('success');
      await invalidate();
    },
    // The server's reason for any refusal (4xx), else the catalogue's generic text.
    onError: (error) => notify('error', refusalMessage(error) ?? errorText(error)),
  });

  const close = () => {
    onClose();
    // Reset after the closing animation.
    setTimeout(() => {
      setStep('search');
      setQuery('');
      form.reset(EMPTY);
      key.renew();
      transfer.reset();
    }, 200);
  };

  const title = {
    search: t('transferFlow.searchTitle'),
    info: t('transferFlow.infoTitle'),
    confirm: t('transferFlow.confirmTitle'),
    success: t('transferFlow.successTitle'),
  }[step];

  return (
    <AppModal opened={opened} onClose={close} title={title}>
      {step === 'search' && (
        <Stack>
          <Controller
            control={form.control}
            name="recipient"
            render={({ field }) => (
              <Select
                label={t('transferFlow.searchLabel')}
                placeholder={t('transferFlow.searchPlaceholder')}
                searchable
                searchValue={query}
                onSearchChange={setQuery}
                filter={({ options: all }) => all}
                nothingFoundMessage={
                  debounced && results.isSuccess ? t('transferFlow.noResult') : null
                }
                data={options.map((r) => ({
                  value: r.id,
                  label: [fullName(r), r.phone].filter(Boolean).join(' · '),
                }))}
                value={field.value?.id ?? null}
                onChange={(id) => field.onChange(options.find((r) => r.id === id) ?? null)}
                onBlur={field.onBlur}
              />
            )}
          />
          {errors.recipient?.message && (
            <Alert color="red" role="alert">
              {t(errors.recipient.message)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:cancel')}
            </Button>
            <Button
              onClick={async () => {
                if (await form.trigger('recipient')) setStep('info');
              }}
            >
              {t('transferFlow.next')}
            </Button>
          </Group>
        </Stack>
      )}
      {step === 'info' && (
        <Stack>
          <Text fw={600}>{t('transferFlow.recipient', { name })}</Text>
          <Controller
            control={form.control}
            name="amount"
            // Typing in either field shows what both still miss.
            rules={{ deps: ['reason'] }}
            render={({ field, fieldState }) => (
              <MoneyInput
                label={t('transferFlow.amount')}
                withAsterisk
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldError(fieldState.error, limits.values(field.value))}
              />
            )}
          />
          <TextInput
            label={t('transferFlow.reason')}
            withAsterisk
            error={fieldError(errors.reason)}
            {...form.register('reason', { deps: ['amount'] })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep('search')}>
              {t('common:back')}
            </Button>
            <Button disabled={!isValid} onClick={() => setStep('confirm')}>
              {t('transferFlow.next')}
            </Button>
          </Group>
        </Stack>
      )}
      {step === 'confirm' && (
        <Stack>
          <Text data-testid="transfer-confirm">
            {t('transferFlow.confirmText', {
              amount: formatNumber(amount ?? 0),
              recipient: name,
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={transfer.isPending}>
              {t('common:cancel')}
            </Button>
            <Button
              loading={transfer.isPending}
              onClick={form.handleSubmit((values) => transfer.mutate(values))}
            >
              {t('transferFlow.confirm')}
            </Button>
          </Group>
        </Stack>
      )}
      {step === 'success' && (
        <Stack>
          <Text data-testid="transfer-success">
            {t('transferFlow.successText', { amount: formatNumber(amount ?? 0), recipient: name })}
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>{t('transferFlow.done')}</Button>
          </Group>
        </Stack>
      )}
    </AppModal>
  );
}
