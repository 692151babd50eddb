import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import type { User } from '../../../shared/auth/user.js';
import { formatNumber } from '../../../shared/format/money.js';
import { usePush } from '../../../shared/realtime/use-realtime.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { notify } from '../../../shared/ui/notify.js';
import { makeDebit, type WithdrawalAnswer } from '../api/transfers.js';
import { useAmountLimits } from '../hooks/use-amount-limits.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { refusalMessage } from '../model/errors.js';
import {
  PAYMENT_MEANS,
  withdrawSchemaWithin,
  type PaymentMeans,
  type WithdrawValues,
} from '../model/forms.js';
import { AmountStep } from './AmountStep.js';

const EMPTY: WithdrawValues = { means: 'MOBILE_MONEY', amount: null };

/** Where the server pays a withdrawal out: the profile's mobile-money number (else its phone), or bank account. */
export function payoutAccountOf(me: User, means: PaymentMeans): string | null {
  const account = means === 'BANK' ? me.bankAccountNumber : (me.momoAccountNumber ?? me.phone);
  return account?.trim() || null;
}

/**
 * 'Retirer': means, amount and the account the money goes to; then 'Retrait en cours' (the
 * money has left the balance, the payout runs in the background). How it ends arrives by push
 * (`withdrawal.settled`): this dialog, if still open, and a toast say 'Retrait effectué' or
 * 'Retrait échoué, montant remboursé'.
 */
export function WithdrawFlow({
  opened,
  onClose,
  me,
}: {
  opened: boolean;
  onClose: () => void;
  me: User;
}) {
  const { t } = useTranslation('wallet');
  const invalidate = useInvalidateWallet();
  // The ceiling and the available balance are checked here, before the withdrawal is sent.
  const limits = useAmountLimits(true);
  const [schema] = useState(() => withdrawSchemaWithin(limits.limitsOf));
  const form = useForm<WithdrawValues>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: EMPTY,
  });
  // Limits loaded or changed (a push moved the balance): the amount typed is checked again.
  useEffect(() => {
    if (form.getValues('amount') !== null) void form.trigger('amount');
  }, [form, limits.version]);
  // Another means or amount is another withdrawal: it gets a new key.
  const key = useIdempotencyKey(form);
  const [sent, setSent] = useState<(WithdrawalAnswer & { settled?: 'SUCCESS' | 'FAILED' }) | null>(
    null,
  );
  const means = useWatch({ control: form.control, name: 'means' });
  const account = payoutAccountOf(me, means);

  usePush('withdrawal.settled', (data) =>
    setSent((s) =>
      s && s.withdrawalId === data.withdrawalId ? { ...s, settled: data.status } : s,
    ),
  );

  const debit = useMutation({
    mutationFn: (values: WithdrawValues) =>
      makeDebit(
        me.walletId ?? me.id,
        { paiementMethod: values.means, amount: values.amount! },
        key.current(),
      ),
    onSuccess: async (answer) => {
      key.renew();
      setSent(answer);
      await invalidate();
    },
    // The server's reason for a refusal (4xx: not enough money, no number or account…), else
    // the spec's 'La transation a échouée'.
    onError: (error) => notify('error', refusalMessage(error) ?? t('withdrawFlow.failed')),
  });

  const close = () => {
    onClose();
    setTimeout(() => {
      form.reset(EMPTY);
      setSent(null);
      key.renew();
      debit.reset();
    }, 200);
  };

  const values = sent && {
    amount: formatNumber(sent.amount),
    account: sent.destination,
    means: t(`withdrawFlow.methods.${sent.paiementMethod}`),
  };
  const outcome = sent?.settled === 'SUCCESS' ? 'paid' : sent?.settled ? 'refunded' : 'pending';

  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={sent ? t(`withdrawFlow.outcomes.${outcome}.title`) : t('withdrawFlow.title')}
    >
      {sent ? (
        <Stack>
          <Text data-testid="withdraw-result">
            {t(`withdrawFlow.outcomes.${outcome}.text`, values!)}
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>{t('transferFlow.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <FormProvider {...form}>
          <form onSubmit={form.handleSubmit((v) => debit.mutate(v))} noValidate>
            <AmountStep
              meansLabel={t('withdrawFlow.method')}
              means={PAYMENT_MEANS.map((m) => ({
                value: m,
                label: t(`withdrawFlow.methods.${m}`),
              }))}
              amountLabel={t('withdrawFlow.amount')}
              submitLabel={t('withdrawFlow.submit')}
              onCancel={close}
              pending={debit.isPending}
              blocked={!account}
              messageValues={limits.values}
            >
              {account ? (
                <Text size="sm" data-testid="withdraw-destination">
                  {t('withdrawFlow.destination', { account })}
                </Text>
              ) : (
                <Alert color="orange" role="alert" data-testid="withdraw-destination">
                  {t(`withdrawFlow.noAccount.${means}`)}
                </Alert>
              )}
            </AmountStep>
          </form>
        </FormProvider>
      )}
    </AppModal>
  );
}
