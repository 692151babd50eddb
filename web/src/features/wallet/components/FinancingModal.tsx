import { notify } from '../../../shared/ui/notify.js';
import { Button, Group, Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { aggregatorsQuery, createFinancing } from '../api/financing.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { amountError } from '../model/amount.js';
import { fullName } from '../model/types.js';

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
  const invalidate = useInvalidateWallet();
  const key = useIdempotencyKey();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const [aggregatorId, setAggregatorId] = useState<string | null>(null);
  const [amount, setAmount] = useState<number | null>(null);
  const [touched, setTouched] = useState(false);
  const aggregators = (useQuery(aggregatorsQuery(debounced)).data ?? []).filter(
    (a) => a.id !== myId,
  );
  const amountMsg = amountError(amount);
  const close = () => {
    onClose();
    setAggregatorId(null);
    setAmount(null);
    setTouched(false);
    setQ('');
    key.renew();
  };
  const fund = useMutation({
    mutationFn: () =>
      createFinancing({ aggregatorId: aggregatorId!, amount: amount! }, key.current()),
    onSuccess: async () => {
      notify('success', t('financings.success'));
      await invalidate();
      close();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened={opened} onClose={close} title={t('financings.new')}>
      <Stack>
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
          value={aggregatorId}
          onChange={(v) => {
            setAggregatorId(v);
            key.renew();
          }}
        />
        <MoneyInput
          label={t('financings.amount')}
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
            disabled={!aggregatorId || Boolean(amountMsg)}
            loading={fund.isPending}
            onClick={() => fund.mutate()}
          >
            {t('financings.submit')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
