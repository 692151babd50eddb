import { notify } from '../../../shared/ui/notify.js';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { idempotencyKeyFor } from '../../../shared/api/idempotency.js';
import { verifySupply } from '../api/supplies.js';
import type { WidgetResult } from '../model/widget.js';
import { useInvalidateWallet } from './use-invalidate-wallet.js';

/**
 * The widget reported a transaction: the server verifies it with the provider (idempotent on
 * its id), whatever the widget said — a refused payment is verified too, so the supply
 * becomes FAILED ('Échouée') instead of staying 'Nouveau'. The toast says what the server
 * decided: 'Approvisionnement effectuée avec succès', 'Le paiement n'a pas abouti', or
 * still being checked (PENDING: the provider had not settled it; checked in the background).
 */
export function useWidgetResult(onDone?: () => void) {
  const { t } = useTranslation('wallet');
  const invalidate = useInvalidateWallet();
  return useMutation({
    mutationFn: (result: WidgetResult) =>
      // The provider's transaction id is the natural idempotency key of a verification.
      verifySupply(
        result.transactionId,
        result.reference,
        idempotencyKeyFor('verify', result.transactionId),
      ),
    onSuccess: async (supply) => {
      if (supply?.status === 'SUCCESS') notify('success', t('supplies.success'));
      else if (supply?.status === 'PENDING') notify('info', t('supplies.pendingCheck'));
      else notify('error', t('supplies.paymentFailed'));
      await invalidate();
      onDone?.();
    },
    onError: async () => {
      notify('error', t('supplies.errors.verify'));
      await invalidate();
      onDone?.();
    },
  });
}
