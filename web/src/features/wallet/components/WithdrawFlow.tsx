import { Button, Group, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import type { User } from '../../../shared/auth/user.js';
import { formatNumber } from '../../../shared/format/money.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { notify } from '../../../shared/ui/notify.js';
import { makeDebit } from '../api/transfers.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { PAYMENT_MEANS, withdrawSchema, type WithdrawValues } from '../model/forms.js';
import { AmountStep } from './AmountStep.js';

const EMPTY: WithdrawValues = { means: 'MOBILE_MONEY', amount: null };

/** 'Retirer': means and amount, then the success step. */
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
  const form = useForm<WithdrawValues>({
    resolver: zodResolver(withdrawSchema),
    mode: 'onChange',
    defaultValues: EMPTY,
  });
  // Another means or amount is another withdrawal: it gets a new key.
  const key = useIdempotencyKey(form);
  const [done, setDone] = useState<number | null>(null);

  const debit = useMutation({
    mutationFn: (values: WithdrawValues) =>
      makeDebit(
        me.walletId ?? me.id,
        { paiementMethod: values.means, amount: values.amount! },
        key.current(),
      ),
    onSuccess: async (_answer, values) => {
      key.renew();
      setDone(values.amount);
      await invalidate();
    },
    // Spec: a 400 shows the server's message, anything else 'La transation a échouée'.
    onError: (error) =>
      notify(
        'error',
        isApiError(error, 400) && error.message ? error.message : t('withdrawFlow.failed'),
      ),
  });

  const close = () => {
    onClose();
    setTimeout(() => {
      form.reset(EMPTY);
      setDone(null);
      key.renew();
      debit.reset();
    }, 200);
  };

  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={done !== null ? t('withdrawFlow.successTitle') : t('withdrawFlow.title')}
    >
      {done !== null ? (
        <Stack>
          <Text data-testid="withdraw-success">
            {t('withdrawFlow.successText', { amount: formatNumber(done) })}
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>{t('transferFlow.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <FormProvider {...form}>
          <form onSubmit={form.handleSubmit((values) => debit.mutate(values))} noValidate>
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
            />
          </form>
        </FormProvider>
      )}
    </AppModal>
  );
}
