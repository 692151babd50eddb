import { toast } from '../hooks/toast.js';
import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error.js';
import type { User } from '../../../shared/auth/user.js';
import { formatNumber } from '../../../shared/format/money.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { makeDebit, type WithdrawInput } from '../api/transfers.js';
import { useIdempotencyKey } from '../hooks/use-idempotency-key.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { amountError } from '../model/amount.js';

type Method = WithdrawInput['paiementMethod'];

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
  const [touched, setTouched] = useState(false);
  const [done, setDone] = useState(false);
  const amountMsg = amountError(amount);

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
      toast(
        'error',
        isApiError(error, 400) && error.message ? error.message : t('withdrawFlow.failed'),
      ),
  });

  const close = () => {
    onClose();
    setTimeout(() => {
      setAmount(null);
      setTouched(false);
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
        <Stack>
          <div>
            <Text size="sm" fw={500} mb={4} id="withdraw-method">
              {t('withdrawFlow.method')}
            </Text>
            <SegmentedControl
              aria-labelledby="withdraw-method"
              fullWidth
              value={method}
              onChange={(v) => {
                setMethod(v as Method);
                key.renew();
              }}
              data={(['MOBILE_MONEY', 'BANK'] as const).map((m) => ({
                value: m,
                label: t(`withdrawFlow.methods.${m}`),
              }))}
            />
          </div>
          <MoneyInput
            label={t('withdrawFlow.amount')}
            withAsterisk
            value={amount}
            onChange={(v) => {
              setAmount(v);
              setTouched(true);
              key.renew();
            }}
            error={touched && amountMsg ? t(amountMsg) : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:cancel')}
            </Button>
            <Button
              disabled={Boolean(amountMsg)}
              loading={debit.isPending}
              onClick={() => debit.mutate()}
            >
              {t('withdrawFlow.submit')}
            </Button>
          </Group>
        </Stack>
      )}
    </AppModal>
  );
}
