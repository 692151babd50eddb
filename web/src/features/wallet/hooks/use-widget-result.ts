import { toast } from './toast.js';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
      return verifySupply(result.transactionId, result.reference, `verify:${result.transactionId}`);
    },
    onSuccess: async (supply) => {
      if (supply?.status === 'FAILED') {
        toast('error', t('supplies.paymentFailed'));
      } else {
        toast('success', t('supplies.success'));
      }
      await invalidate();
      onDone?.();
    },
    onError: async (error) => {
      toast(
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
