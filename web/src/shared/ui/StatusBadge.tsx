import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type BadgeKind = 'success' | 'warning' | 'danger' | 'colorize';

const COLORS: Record<BadgeKind, string> = {
  success: 'teal',
  warning: 'orange',
  danger: 'red',
  colorize: 'grape',
};

/** Kinds of the shared statuses (platform-and-wallet §4). */
const STATUS_KIND: Record<string, BadgeKind> = {
  INACTIVE: 'danger',
  CONFIRMED: 'success',
  DELIVERED: 'success',
  COMPLETED: 'success',
  CANCELED: 'danger',
  OUTTIME: 'danger',
  NEW: 'colorize',
  INIT: 'colorize',
  DONE: 'success',
  CREATED: 'warning',
  PENDING: 'warning',
  ACCEPTED: 'colorize',
  REJECTED: 'danger',
  SUCCESS: 'success',
  FAILED: 'danger',
};

/** A badge for a shared status code, or for any label with an explicit kind. */
export function StatusBadge({
  status,
  label,
  kind,
}: {
  status?: string;
  label?: string;
  kind?: BadgeKind;
}) {
  const { t } = useTranslation();
  const k = kind ?? (status ? STATUS_KIND[status] : undefined) ?? 'success';
  return (
    <Badge
      color={COLORS[k]}
      variant="dot"
      radius="sm"
      styles={{ label: { textTransform: 'none' } }}
    >
      {label ?? (status ? t(`statuses.${status}`, { defaultValue: status }) : '')}
    </Badge>
  );
}
