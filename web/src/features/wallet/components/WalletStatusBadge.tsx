import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Kind = 'success' | 'warning' | 'danger' | 'neutral';

/** Light badge colours with text dark enough for WCAG AA (4.5:1) on the tinted background. */
const STYLE: Record<Kind, { color: string; text: string }> = {
  success: { color: 'teal', text: '#05523b' },
  warning: { color: 'orange', text: '#7a2e05' },
  danger: { color: 'red', text: '#9b1111' },
  neutral: { color: 'grape', text: '#5f1a6e' },
};

const KIND: Record<string, Kind> = {
  SUCCESS: 'success',
  FAILED: 'danger',
  PENDING: 'warning',
  INIT: 'neutral',
  // Supplies: FAILED because the payer cancelled it, a super admin rejected it, or no payment
  // was found in time (given up).
  CANCELLED: 'danger',
  REJECTED: 'danger',
  EXPIRED: 'danger',
};

/** A transaction, supply or financing status with the spec's label ('Succès', 'Échouée', …). */
export function WalletStatusBadge({
  status,
  labels = 'statuses',
  kind,
}: {
  status: string;
  labels?: 'statuses' | 'financingStatuses' | 'supplyOutcomes';
  kind?: Kind;
}) {
  const { t } = useTranslation('wallet');
  const style = STYLE[kind ?? KIND[status] ?? 'neutral'];
  return (
    <Badge
      color={style.color}
      variant="light"
      radius="sm"
      styles={{ label: { textTransform: 'none', color: style.text } }}
    >
      {t(`${labels}.${status}`, { defaultValue: status })}
    </Badge>
  );
}
