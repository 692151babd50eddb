import { notify } from '../../../shared/ui/notify.js';
import { Alert, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import type { User } from '../../../shared/auth/user.js';
import { formatNumber } from '../../../shared/format/money.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { makeTransfer, recipientsQuery } from '../api/transfers.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { amountError, requiredError } from '../model/amount.js';
import { fullName, type Recipient } from '../model/types.js';

type Step = 'search' | 'info' | 'confirm' | 'success';

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
  const invalidate = useInvalidateWallet();
  const key = useIdempotencyKey();
  const [step, setStep] = useState<Step>('search');
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 250);
  const [recipient, setRecipient] = useState<Recipient | null>(null);
  const [noRecipient, setNoRecipient] = useState(false);
  const [amount, setAmount] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const results = useQuery(recipientsQuery(debounced));
  const options = (results.data ?? []).filter((r) => r.id !== me.id);

  const amountMsg = amountError(amount);
  const reasonMsg = requiredError(reason);
  const name = recipient ? fullName(recipient) : '';

  const transfer = useMutation({
    mutationFn: () =>
      makeTransfer(
        {
          source: me.walletId ?? me.id,
          destination: recipient!.id,
          amount: amount!,
          reason: reason.trim(),
        },
        key.current(),
      ),
    onSuccess: async () => {
      key.renew();
      setStep('success');
      await invalidate();
    },
    onError: (error) => notify('error', errorText(error)),
  });

  const close = () => {
    onClose();
    // Reset after the closing animation.
    setTimeout(() => {
      setStep('search');
      setQuery('');
      setRecipient(null);
      setAmount(null);
      setReason('');
      setTouched(false);
      setNoRecipient(false);
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
          <Select
            label={t('transferFlow.searchLabel')}
            placeholder={t('transferFlow.searchPlaceholder')}
            searchable
            searchValue={query}
            onSearchChange={setQuery}
            filter={({ options: all }) => all}
            nothingFoundMessage={debounced && results.isSuccess ? t('transferFlow.noResult') : null}
            data={options.map((r) => ({
              value: r.id,
              label: [fullName(r), r.phone].filter(Boolean).join(' · '),
            }))}
            value={recipient?.id ?? null}
            onChange={(id) => {
              setRecipient(options.find((r) => r.id === id) ?? null);
              setNoRecipient(false);
            }}
          />
          {noRecipient && (
            <Alert color="red" role="alert">
              {t('transferFlow.noRecipient')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:cancel')}
            </Button>
            <Button
              onClick={() => {
                if (!recipient) setNoRecipient(true);
                else setStep('info');
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
          <MoneyInput
            label={t('transferFlow.amount')}
            withAsterisk
            value={amount}
            onChange={(v) => {
              setAmount(v);
              setTouched(true);
              key.renew();
            }}
            error={touched && amountMsg ? t(amountMsg) : undefined}
          />
          <TextInput
            label={t('transferFlow.reason')}
            withAsterisk
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setTouched(true);
              key.renew();
            }}
            error={touched && reasonMsg ? t(reasonMsg) : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep('search')}>
              {t('common:back')}
            </Button>
            <Button disabled={Boolean(amountMsg || reasonMsg)} onClick={() => setStep('confirm')}>
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
            <Button loading={transfer.isPending} onClick={() => transfer.mutate()}>
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
