import { Alert, Card, Group, Loader, Paper, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { formatDecimal } from '../../../shared/format/number.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { BarChart } from '../../../shared/ui/BarChart.js';

export interface ForecastRow {
  centre: string;
  /** The week's Monday, YYYY-MM-DD. */
  week: string;
  expectedKg: number;
  contractedKg: number;
}

const harvestQuery = (weeks: number) => ({
  queryKey: ['contracts', 'collection', 'harvest', weeks] as const,
  queryFn: async () =>
    (
      await api<{ data: ForecastRow[] }>('/contracts/collection/harvest-forecast', {
        query: { weeks },
      })
    ).data,
});

/** Kilograms as tonnes with a decimal comma ('12,5'). */
const tonnes = (kg: number) => formatDecimal(String(kg / 1000));
/** '08/03/2027' for a week's Monday. */
const dayLabel = (day: string) => day.split('-').reverse().join('/');

/** The weeks' bars: one bar per week, one stack per buying centre (tonnes expected). */
export function weeklyBars(rows: readonly ForecastRow[]) {
  const centres = [...new Set(rows.map((r) => r.centre))].sort((a, b) => a.localeCompare(b, 'fr'));
  const weeks = [...new Set(rows.map((r) => r.week))].sort();
  const data = weeks.map((week) => {
    const bar: Record<string, string | number> = { week: dayLabel(week) };
    for (const c of centres) {
      const row = rows.find((r) => r.week === week && r.centre === c);
      bar[c] = row ? row.expectedKg / 1000 : 0;
    }
    return bar;
  });
  return { centres, data };
}

/**
 * 'Prévisions de récolte': the tonnes the aggregator's cluster should harvest per week and
 * buying centre (five months after each plot's floral induction), and what its open
 * contracts take of them — a chart, and the same figures as cards readable at 390 px.
 */
export function HarvestForecastPage() {
  const { t } = useTranslation('collection');
  const errorText = useErrorText();
  const [weeks, setWeeks] = useState(26);
  const forecast = useQuery(harvestQuery(weeks));
  const rows = forecast.data ?? [];
  const { centres, data } = weeklyBars(rows);
  return (
    <Stack maw={900}>
      <PageTitle>{t('harvest.title')}</PageTitle>
      <Text>{t('harvest.rule')}</Text>
      <Select
        label={t('harvest.horizon')}
        size="md"
        maw={240}
        allowDeselect={false}
        value={String(weeks)}
        onChange={(v) => v && setWeeks(Number(v))}
        data={[13, 26, 39, 52].map((w) => ({
          value: String(w),
          label: t('harvest.weeks', { count: w }),
        }))}
      />
      {forecast.isPending && <Loader aria-label={t('harvest.loading')} />}
      {forecast.isError && <Alert color="red">{errorText(forecast.error)}</Alert>}
      {forecast.isSuccess && rows.length === 0 && <Text>{t('harvest.empty')}</Text>}
      {rows.length > 0 && (
        <Paper withBorder p="md">
          <div style={{ height: 260 }} role="img" aria-label={t('harvest.chart')}>
            <BarChart
              data={data}
              keys={centres}
              indexBy="week"
              margin={{ top: 10, right: 10, bottom: 50, left: 40 }}
              padding={0.3}
              enableLabel={false}
              axisBottom={{ tickRotation: -45 }}
              animate={false}
              role="presentation"
            />
          </div>
        </Paper>
      )}
      {rows.length > 0 && (
        <Stack gap="xs" aria-label={t('harvest.table')} role="list">
          {rows.map((r) => (
            <Card key={`${r.week}-${r.centre}`} withBorder padding="sm" role="listitem">
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>{t('harvest.weekOf', { day: dayLabel(r.week) })}</Text>
                <Text>{r.centre}</Text>
              </Group>
              <Group justify="space-between" wrap="nowrap">
                <Text>{t('harvest.expected')}</Text>
                <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {tonnes(r.expectedKg)} t
                </Text>
              </Group>
              <Group justify="space-between" wrap="nowrap">
                <Text>{t('harvest.contracted')}</Text>
                <Text style={{ whiteSpace: 'nowrap' }}>{tonnes(r.contractedKg)} t</Text>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
