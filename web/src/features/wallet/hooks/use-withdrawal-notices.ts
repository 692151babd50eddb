import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../shared/format/money.js';
import { usePush } from '../../../shared/realtime/use-realtime.js';
import { notify } from '../../../shared/ui/notify.js';

/**
 * How a withdrawal ended, told live wherever the user is (the side balance card mounts it):
 * 'Retrait effectué' once paid out, 'Retrait échoué, montant remboursé' once refused and
 * refunded. The dialog only said the withdrawal was under way.
 */
export function useWithdrawalNotices(): void {
  const { t } = useTranslation('wallet');
  usePush('withdrawal.settled', ({ status, amount }) =>
    notify(
      status === 'SUCCESS' ? 'success' : 'error',
      t(`withdrawFlow.notices.${status}`, { amount: formatNumber(amount) }),
    ),
  );
}
