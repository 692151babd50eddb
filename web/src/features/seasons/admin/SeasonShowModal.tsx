import { Button, Group, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { formatAmount, formatPeriod, formatQuantity, type SeasonSummary } from '../model/index.js';
import { InfoGrid, InfoItem } from './SeasonInfo.js';
import { SeasonStatusBadge } from './SeasonStatusBadge.js';
import { formatDecimal } from '../../../shared/format/number.js';

/** The list's eye: the season's fields and sums at a glance, and 'Voir détails'. */
export function SeasonShowModal({
  season,
  onClose,
}: {
  season: SeasonSummary | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('seasons');
  return (
    <AppModal
      opened={season !== null}
      onClose={onClose}
      size={700}
      title={season ? t('form.showTitle', { label: season.label }) : ''}
    >
      {season && (
        <Stack>
          <InfoGrid>
            <InfoItem label={t('fields.label')}>{season.label}</InfoItem>
            <InfoItem label={t('columns.period')}>{formatPeriod(season.from, season.to)}</InfoItem>
            <InfoItem label={t('columns.status')}>
              <SeasonStatusBadge status={season.status} />
            </InfoItem>
            <InfoItem label={t('fields.unitProductAmount')}>
              {`${formatQuantity(season.unitProductAmount)} ${t('units.perKg')}`}
            </InfoItem>
            <InfoItem label={t('fields.productionIndex')}>
              {`${formatDecimal(season.productionIndex)} ${t('units.tonsPerHa')}`}
            </InfoItem>
            <InfoItem
              label={t('fields.quotity')}
            >{`${formatDecimal(season.quotity, 2)} %`}</InfoItem>
            <InfoItem label={t('detail.totalQuantity')}>{formatQuantity(season.quantity)}</InfoItem>
            <InfoItem label={t('industrials.productionAmount')}>
              {formatAmount(season.productionAmount)}
            </InfoItem>
            <InfoItem label={t('detail.industrialsCount')}>{season.industrialsCount}</InfoItem>
          </InfoGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:close')}
            </Button>
            <Button
              renderRoot={(props) => (
                <Link {...props} to="/saisons/show/$id" params={{ id: String(season.id) }} />
              )}
            >
              {t('viewDetails')}
            </Button>
          </Group>
        </Stack>
      )}
    </AppModal>
  );
}
