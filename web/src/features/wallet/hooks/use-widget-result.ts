import { notify } from '../../../shared/ui/notify.js';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { idempotencyKeyFor } from '../../../shared/api/idempotency.js';
import { verifySupply } from '../api/supplies.js';
import type { WidgetResult } from '../model/widget.js';
import { useInvalidateWallet } from './use-invalidate-wallet.js';

/**
 * The widget reported: on success the server verifies the provider's transaction
 * (idempotent on its id) and the stats reload; 'Approvisionnement effectuée avec succès'.
 */
export function useWidgetResult(onDone?: () => void) {
  const { t } = useTranslation('wallet');
  const invalidate = useInvalidateWallet();
  return useMutation({
    mutationFn: async (result: WidgetResult) => {
      if (result.status !== 'SUCCESS') throw new Error('refused');
      // The provider's transaction id is the natural idempotency key of a verification.
      return verifySupply(
        result.transactionId,
        result.reference,
        idempotencyKeyFor('verify', result.transactionId),
      );
    },
    onSuccess: async (supply) => {
      if (supply?.status === 'FAILED') {
        notify('error', t('supplies.paymentFailed'));
      } else {
        notify('success', t('supplies.success'));
      }
      await invalidate();
      onDone?.();
    },
    onError: async (error) => {
      notify(
        'error',
        error instanceof Error && error.message === 'refused'
          ? t('supplies.paymentFailed')
          : t('supplies.errors.verify'),
      );
      await invalidate();
      onDone?.();
    },
  });
}
