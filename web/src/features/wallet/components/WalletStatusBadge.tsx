import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../shared/ui/StatusBadge.js';

/** A transaction, supply or financing status with the spec's label and colour. */
export function WalletStatusBadge({
  status,
  labels = 'statuses',
}: {
  status: string;
  labels?: 'statuses' | 'financingStatuses';
}) {
  const { t } = useTranslation('wallet');
  return <StatusBadge status={status} label={t(`${labels}.${status}`, { defaultValue: status })} />;
}
