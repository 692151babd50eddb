import { useTranslation } from 'react-i18next';
import { usePush } from '../../../shared/realtime/use-realtime.js';
import { notify } from '../../../shared/ui/notify.js';

/**
 * A super admin rejected one of my bank supplies: told live wherever I am in the app (the
 * side balance card mounts it), with the reason; the row turns 'Rejetée' by the
 * `supplies.updated` push of the same change.
 */
export function useSupplyNotices(): void {
  const { t } = useTranslation('wallet');
  usePush('supply.rejected', ({ reference, reason }) =>
    notify('error', t('supplies.rejectedNotice', { reference, reason })),
  );
}
