import { useTranslation } from 'react-i18next';
import { StatusBadge, type BadgeKind } from '../../../shared/ui/StatusBadge.js';

const SEASON_KIND: Record<string, BadgeKind> = {
  CREATED: 'colorize',
  ACCEPTED: 'success',
  REJECTED: 'danger',
};

const LINK_KIND: Record<string, BadgeKind> = {
  PENDING: 'warning',
  CONFIRMED: 'success',
  CANCELED: 'danger',
};

/** A season's status: 'Nouveau', 'Accepté', 'Rejetée' (spec §2.1). */
export function SeasonStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('seasons');
  return (
    <StatusBadge
      kind={SEASON_KIND[status] ?? 'colorize'}
      label={t(`statuses.${status}`, { defaultValue: status })}
    />
  );
}

/** An industrial's link: 'En attente', 'Confirmée', 'Expiré'. */
export function LinkStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('seasons');
  return (
    <StatusBadge
      kind={LINK_KIND[status] ?? 'warning'}
      label={t(`linkStatuses.${status}`, { defaultValue: status })}
    />
  );
}
