import { Group, Loader, Select, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Controller, FormProvider, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import type { User } from '../../../shared/auth/user.js';
import { toLocalPhone } from '../../../shared/format/phone.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { DigitsInput } from '../../../shared/ui/DigitsInput.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { bankAccountQuery, createSupply } from '../api/supplies.js';
import { useAmountLimits } from '../hooks/use-amount-limits.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import type { PaymentWidget } from '../hooks/use-payment-widget.js';
import {
  PAYMENT_MEANS,
  supplySchemaWithin,
  type PaymentMeans,
  type SupplyValues,
} from '../model/forms.js';
import { operatorOf } from '../model/supply-row.js';
import type { SupplyCreated } from '../model/types.js';
import { AmountStep } from './AmountStep.js';
import { BankInfoModal } from './BankInfoModal.js';

/** The payer's number to prefill: the profile's mobile money number, else its phone. */
const profileNumber = (me: User) => toLocalPhone(me.momoAccountNumber ?? me.phone);

/**
 * 'Nouvel approvisionnement': means and amount (`AmountStep`), the accepted bank in transfer
 * mode, the payer's mobile money number (prefilled from the profile, its operator shown) in
 * mobile-money mode. Mobile money or card opens the configured provider's widget (`payment`,
 * owned by the page, which closes this dialog once the widget settled: the sandbox's page in
 * a payment window, KKiaPay's or FedaPay's widget over the page, this dialog closed first);
 * a bank transfer shows the account number and the slip's reference.
 */
export function SupplyModal({
  opened,
  onClose,
  me,
  payment,
  initialMode = 'MOBILE_MONEY',
}: {
  opened: boolean;
  onClose: () => void;
  me: User;
  payment: PaymentWidget;
  initialMode?: PaymentMeans;
}) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const invalidate = useInvalidateWallet();
  // The accepted bank comes from the API (SUPPLY_BANK_NAME); it is preselected.
  const accepted = useQuery(bankAccountQuery());
  // A supply brings money in: the form checks the ceiling only.
  const limits = useAmountLimits(false);
  const [schema] = useState(() => supplySchemaWithin(limits.limitsOf));
  const form = useForm<SupplyValues>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: {
      means: initialMode,
      amount: null,
      bank: accepted.data?.bankName ?? '',
      phone: profileNumber(me),
    },
  });
  // Limits loaded or changed (a push moved the balance): the amount typed is checked again.
  useEffect(() => {
    if (form.getValues('amount') !== null) void form.trigger('amount');
  }, [form, limits.version]);
  // Another means, amount, bank or number is another supply: it gets a new key.
  const key = useIdempotencyKey(form);
  const [created, setCreated] = useState<SupplyCreated | null>(null);
  const means = useWatch({ control: form.control, name: 'means' });
  const phone = useWatch({ control: form.control, name: 'phone' });
  const operator = operatorOf(phone ?? '');
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

  // Closed by anyone (its buttons, the page once the widget settled): it starts again. The
  // means, the bank and the number stay as chosen; the amount starts again.
  const renewKey = key.renew;
  useEffect(() => {
    if (opened) return;
    const timer = setTimeout(() => {
      form.reset({ ...form.getValues(), amount: null });
      setCreated(null);
      renewKey();
    }, 200);
    return () => clearTimeout(timer);
  }, [opened, form, renewKey]);
  const close = onClose;

  const create = useMutation({
    mutationFn: (values: SupplyValues) =>
      createSupply(
        {
          amount: values.amount!,
          walletId: me.walletId,
          accountType: values.means,
          ...(values.means === 'BANK' && values.bank ? { bank: values.bank } : {}),
          ...(values.means === 'MOBILE_MONEY' ? { phone: values.phone.trim() } : {}),
        },
        key.current(),
      ),
    onSuccess: async (answer) => {
      key.renew();
      if (answer.widget) {
        if (answer.widget.provider === 'sandbox') setCreated(answer);
        else close(); // the provider's widget opens over the page, not over this dialog
        await payment.show(answer.widget);
      } else {
        payment.abandon();
        setCreated(answer);
      }
      await invalidate();
    },
    onError: (error) => {
      payment.abandon();
      notify('error', isApiError(error) ? errorText(error) : t('supplies.errors.reference'));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    // The sandbox's window is opened now, in the click, or the browser blocks it.
    if (form.getValues('means') === 'MOBILE_MONEY') payment.prepare();
    void form.handleSubmit(
      (values) => create.mutate(values),
      () => payment.abandon(),
    )(event);
  };

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

  const inWidget = created?.widget?.provider === 'sandbox';
  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={inWidget ? t('supplies.widgetTitle') : t('supplies.modalTitle')}
      size={inWidget ? 620 : 500}
    >
      {inWidget ? (
        payment.state === 'verifying' ? (
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
              messageValues={limits.values}
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
              {means === 'MOBILE_MONEY' && (
                <Controller
                  control={form.control}
                  name="phone"
                  render={({ field, fieldState }) => (
                    <DigitsInput
                      label={t('supplies.phone')}
                      withAsterisk
                      autoComplete="tel-national"
                      placeholder="01XXXXXXXX"
                      value={field.value}
                      onChange={(event) => field.onChange(event.currentTarget.value)}
                      onBlur={field.onBlur}
                      error={fieldError(fieldState.error)}
                      description={
                        operator ? (
                          <span data-testid="supply-operator">
                            {t('supplies.operator', { operator })}
                          </span>
                        ) : undefined
                      }
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
