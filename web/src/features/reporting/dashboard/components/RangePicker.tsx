import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  activePreset,
  DASHBOARD_PRESETS,
  formatDay,
  type DashboardSearch,
} from '../model/presets.js';
import type { AnsweredRange } from '../api/dashboard.js';
import { DateField } from '../../../../shared/ui/DateField.js';

/**
 * The dashboard's date range: the presets Aujourd'hui … Depuis le début (pressed when active)
 * and 'Date de début' / 'Date de fin' for picked days; both live in the URL. Below, the days
 * the figures cover, as the API answered them.
 */
export function RangePicker({
  search,
  onSearchChange,
  answered,
}: {
  search: DashboardSearch;
  onSearchChange: (next: Partial<DashboardSearch>) => void;
  answered: AnsweredRange | undefined;
}) {
  const { t } = useTranslation('dashboard');
  const active = activePreset(search);
  return (
    <Stack gap="xs">
      <Group gap="xs" role="group" aria-label={t('range.presets')}>
        {DASHBOARD_PRESETS.map((preset) => (
          <Button
            key={preset}
            size="xs"
            variant={active === preset ? 'filled' : 'default'}
            aria-pressed={active === preset}
            onClick={() => onSearchChange({ preset, from: undefined, to: undefined })}
          >
            {t(`common:presets.${preset}`)}
          </Button>
        ))}
      </Group>
      <Group gap="xs" align="flex-end">
        <DateField
          size="xs"
          w={150}
          label={t('common:from')}
          maxDate={search.to}
          value={search.from ?? null}
          onChange={(v) => onSearchChange({ from: v ?? undefined, preset: undefined })}
        />
        <DateField
          size="xs"
          w={150}
          label={t('common:to')}
          minDate={search.from}
          value={search.to ?? null}
          onChange={(v) => onSearchChange({ to: v ?? undefined, preset: undefined })}
        />
      </Group>
      <Text size="sm" c="dark.5" data-testid="dashboard-range" aria-live="polite">
        {answered
          ? answered.from
            ? t('range.between', { from: formatDay(answered.from), to: formatDay(answered.to) })
            : t('range.upTo', { to: formatDay(answered.to) })
          : '\u00a0'}
      </Text>
    </Stack>
  );
}
