import { Group, Loader, Select, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Controller, FormProvider, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import type { User } from '../../../shared/auth/user.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { bankAccountQuery, createSupply } from '../api/supplies.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { useWidgetResult } from '../hooks/use-widget-result.js';
import {
  PAYMENT_MEANS,
  supplySchema,
  type PaymentMeans,
  type SupplyValues,
} from '../model/forms.js';
import type { SupplyCreated } from '../model/types.js';
import { readWidgetMessage, widgetAddress } from '../model/widget.js';
import { AmountStep } from './AmountStep.js';
import { BankInfoModal } from './BankInfoModal.js';

/**
 * 'Nouvel approvisionnement': means and amount (`AmountStep`, and the accepted bank in
 * transfer mode). Mobile money or card opens the provider's widget in a payment window;
 * a bank transfer shows the account number and the reference to write on the slip.
 */
export function SupplyModal({
  opened,
  onClose,
  me,
  initialMode = 'MOBILE_MONEY',
}: {
  opened: boolean;
  onClose: () => void;
  me: User;
  initialMode?: PaymentMeans;
}) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const invalidate = useInvalidateWallet();
  // The accepted bank comes from the API (SUPPLY_BANK_NAME); it is preselected.
  const accepted = useQuery(bankAccountQuery());
  const form = useForm<SupplyValues>({
    resolver: zodResolver(supplySchema),
    mode: 'onChange',
    defaultValues: { means: initialMode, amount: null, bank: accepted.data?.bankName ?? '' },
  });
  // Another means, amount or bank is another supply: it gets a new key.
  const key = useIdempotencyKey(form);
  const [created, setCreated] = useState<SupplyCreated | null>(null);
  const means = useWatch({ control: form.control, name: 'means' });
  const acceptedBank = accepted.data?.bankName;

  useEffect(() => {
    if (acceptedBank && !form.getFieldState('bank').isDirty && !form.getValues('bank')) {
      form.setValue('bank', acceptedBank, { shouldValidate: true });
    }
  }, [acceptedBank, form]);
  // A bank transfer without a bank says so once the accepted bank is known (or failed to load).
  useEffect(() => {
    if (!accepted.isLoading) void form.trigger('bank');
  }, [means, accepted.isLoading, form]);

  const reset = () => {
    // The means and the bank stay as chosen; the amount starts again.
    form.reset({ ...form.getValues(), amount: null });
    setCreated(null);
    key.renew();
  };
  const close = () => {
    onClose();
    setTimeout(reset, 200);
  };
  const widgetResult = useWidgetResult(close);
  // The payment window: opened on the click (popup blockers), pointed at the widget later.
  const popup = useRef<Window | null>(null);

  const create = useMutation({
    mutationFn: (values: SupplyValues) =>
      createSupply(
        {
          amount: values.amount!,
          walletId: me.walletId,
          accountType: values.means,
          ...(values.means === 'BANK' && values.bank ? { bank: values.bank } : {}),
        },
        key.current(),
      ),
    onSuccess: async (answer) => {
      key.renew();
      setCreated(answer);
      const url = answer.widget?.url;
      if (url && popup.current && !popup.current.closed) {
        popup.current.location.href = widgetAddress(url);
      } else if (url) {
        // No window could be opened: the widget comes back to this page.
        window.location.assign(widgetAddress(url, '/approvisionnements'));
      } else {
        popup.current?.close();
      }
      await invalidate();
    },
    onError: (error) => {
      popup.current?.close();
      notify('error', isApiError(error) ? errorText(error) : t('supplies.errors.reference'));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    // Opened now, in the click, or the browser blocks it; validation comes after.
    popup.current =
      form.getValues('means') === 'MOBILE_MONEY'
        ? window.open('about:blank', 'filiere-payment')
        : null;
    void form.handleSubmit(
      (values) => create.mutate(values),
      () => popup.current?.close(),
    )(event);
  };

  const widgetUrl = created?.widget?.url ? widgetAddress(created.widget.url) : null;

  // The widget's return page (in the payment window) posts its outcome here.
  useEffect(() => {
    if (!widgetUrl) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const result = readWidgetMessage(event.data);
      if (result && !widgetResult.isPending) widgetResult.mutate(result);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [widgetUrl, widgetResult]);

  if (created?.bankAccountNumber) {
    return (
      <BankInfoModal
        opened={opened}
        onClose={close}
        accountNumber={created.bankAccountNumber.accountNumber}
        bankName={created.bankAccountNumber.bankName}
        reference={created.reference}
      />
    );
  }

  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={widgetUrl ? t('supplies.widgetTitle') : t('supplies.modalTitle')}
      size={widgetUrl ? 620 : 500}
    >
      {widgetUrl ? (
        widgetResult.isPending ? (
          <Group>
            <Loader size="sm" />
            <Text>{t('supplies.verifying')}</Text>
          </Group>
        ) : (
          <Group data-testid="supply-widget-waiting">
            <Loader size="sm" />
            <Text>{t('supplies.widgetOpen')}</Text>
          </Group>
        )
      ) : (
        <FormProvider {...form}>
          <form onSubmit={submit} noValidate>
            <AmountStep
              meansLabel={t('supplies.mode')}
              means={PAYMENT_MEANS.map((m) => ({ value: m, label: t(`supplies.modes.${m}`) }))}
              amountLabel={t('supplies.amount')}
              submitLabel={t('supplies.submit')}
              onCancel={close}
              pending={create.isPending}
            >
              {means === 'BANK' && (
                <Controller
                  control={form.control}
                  name="bank"
                  render={({ field, fieldState }) => (
                    <Select
                      label={t('supplies.bank')}
                      withAsterisk
                      data={accepted.data ? [accepted.data.bankName] : []}
                      value={field.value || null}
                      onChange={(v) => field.onChange(v ?? '')}
                      onBlur={field.onBlur}
                      error={accepted.isLoading ? undefined : fieldError(fieldState.error)}
                    />
                  )}
                />
              )}
            </AmountStep>
          </form>
        </FormProvider>
      )}
    </AppModal>
  );
}
