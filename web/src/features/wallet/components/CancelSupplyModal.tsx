import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { formatNumber } from '../../../shared/format/money.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { notify } from '../../../shared/ui/notify.js';
import { cancelSupply } from '../api/supplies.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import type { SupplyRow } from '../model/supply-row.js';

/**
 * 'Annuler' on a supply still waiting for its payment: asks first, then the payer's
 * cancellation (an event: the supply becomes FAILED, 'Annulée'). The server's refusal (the
 * payment is being verified, say) is shown as it says it.
 */
export function CancelSupplyModal({
  supply,
  onClose,
}: {
  supply: SupplyRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
  const invalidate = useInvalidateWallet();
  const key = useIdempotencyKey();
  const close = () => {
    key.renew();
    onClose();
  };
  const cancel = useMutation({
    mutationFn: (reference: string) => cancelSupply(reference, key.current()),
    onSuccess: async () => {
      notify('success', t('supplies.cancelled'));
      await invalidate();
      close();
    },
    onError: async (error) => {
      notify('error', errorText(error));
      await invalidate();
    },
  });
  return (
    <AppModal opened={supply !== null} onClose={close} title={t('supplies.cancelTitle')}>
      <Stack>
        <Text data-testid="cancel-supply-text">
          {t('supplies.cancelText', {
            reference: supply?.reference ?? '',
            amount: formatNumber(supply?.amount ?? 0),
          })}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('supplies.keep')}
          </Button>
          <Button
            color="red"
            loading={cancel.isPending}
            onClick={() => supply && cancel.mutate(supply.reference)}
          >
            {t('supplies.cancelConfirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
