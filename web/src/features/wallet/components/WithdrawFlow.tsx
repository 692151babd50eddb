import { notify } from '../../../shared/ui/notify.js';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error.js';
import type { User } from '../../../shared/auth/user.js';
import { formatNumber } from '../../../shared/format/money.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { makeDebit, type WithdrawInput } from '../api/transfers.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { AmountStep } from './AmountStep.js';

type Method = WithdrawInput['paiementMethod'];
const METHODS = ['MOBILE_MONEY', 'BANK'] as const;

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
  const key = useIdempotencyKey();
  const [method, setMethod] = useState<Method>('MOBILE_MONEY');
  const [amount, setAmount] = useState<number | null>(null);
  const [done, setDone] = useState(false);

  const debit = useMutation({
    mutationFn: () =>
      makeDebit(me.walletId ?? me.id, { paiementMethod: method, amount: amount! }, key.current()),
    onSuccess: async () => {
      key.renew();
      setDone(true);
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
      setAmount(null);
      setDone(false);
      key.renew();
      debit.reset();
    }, 200);
  };

  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={done ? t('withdrawFlow.successTitle') : t('withdrawFlow.title')}
    >
      {done ? (
        <Stack>
          <Text data-testid="withdraw-success">
            {t('withdrawFlow.successText', { amount: formatNumber(amount ?? 0) })}
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>{t('transferFlow.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <AmountStep<Method>
          modeLabel={t('withdrawFlow.method')}
          modes={METHODS.map((m) => ({ value: m, label: t(`withdrawFlow.methods.${m}`) }))}
          mode={method}
          onModeChange={(m) => {
            setMethod(m);
            key.renew();
          }}
          amountLabel={t('withdrawFlow.amount')}
          amount={amount}
          onAmountChange={(v) => {
            setAmount(v);
            key.renew();
          }}
          submitLabel={t('withdrawFlow.submit')}
          onSubmit={() => debit.mutate()}
          onCancel={close}
          pending={debit.isPending}
        />
      )}
    </AppModal>
  );
}
