import { notify } from '../../../shared/ui/notify.js';
import { Group, Loader, Select, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../shared/auth/user.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { isApiError } from '../../../shared/api/api-error.js';
import { bankAccountQuery, createSupply, type SupplyInput } from '../api/supplies.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { useWidgetResult } from '../hooks/use-widget-result.js';
import type { SupplyCreated } from '../model/types.js';
import { readWidgetMessage, widgetAddress } from '../model/widget.js';
import { AmountStep } from './AmountStep.js';
import { BankInfoModal } from './BankInfoModal.js';

type Mode = SupplyInput['accountType'];
const MODES = ['MOBILE_MONEY', 'BANK'] as const;

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
  initialMode?: Mode;
}) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
  const invalidate = useInvalidateWallet();
  const key = useIdempotencyKey();
  const [mode, setMode] = useState<Mode>(initialMode);
  const [amount, setAmount] = useState<number | null>(null);
  // The accepted bank comes from the API (SUPPLY_BANK_NAME); it is preselected.
  const accepted = useQuery(bankAccountQuery());
  const [chosenBank, setBank] = useState<string | null | undefined>(undefined);
  const bank = chosenBank === undefined ? (accepted.data?.bankName ?? null) : chosenBank;
  const [created, setCreated] = useState<SupplyCreated | null>(null);
  const bankMissing = mode === 'BANK' && !bank;

  const reset = () => {
    setAmount(null);
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
    mutationFn: () =>
      createSupply(
        {
          amount: amount!,
          walletId: me.walletId,
          accountType: mode,
          ...(mode === 'BANK' && bank ? { bank } : {}),
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
        <AmountStep<Mode>
          modeLabel={t('supplies.mode')}
          modes={MODES.map((m) => ({ value: m, label: t(`supplies.modes.${m}`) }))}
          mode={mode}
          onModeChange={(m) => {
            setMode(m);
            key.renew();
          }}
          amountLabel={t('supplies.amount')}
          amount={amount}
          onAmountChange={(v) => {
            setAmount(v);
            key.renew();
          }}
          submitLabel={t('supplies.submit')}
          onSubmit={() => {
            popup.current =
              mode === 'MOBILE_MONEY' ? window.open('about:blank', 'filiere-payment') : null;
            create.mutate();
          }}
          onCancel={close}
          pending={create.isPending}
          invalid={bankMissing}
        >
          {mode === 'BANK' && (
            <Select
              label={t('supplies.bank')}
              withAsterisk
              data={accepted.data ? [accepted.data.bankName] : []}
              value={bank}
              onChange={(v) => {
                setBank(v);
                key.renew();
              }}
              error={bankMissing && !accepted.isLoading ? t('validation:required') : undefined}
            />
          )}
        </AmountStep>
      )}
    </AppModal>
  );
}
