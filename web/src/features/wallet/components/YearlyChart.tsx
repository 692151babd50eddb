import { Group, Paper, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { yearlyStatsQuery } from '../api/transactions.js';
import { monthlyBars, pickerYears } from '../model/chart.js';
import { BarChart } from '../../../shared/ui/BarChart.js';

/** Transaction counts per month (Jan–Déc) for the picked year (nivo bar chart). */
export function YearlyChart({
  walletId,
  year,
  onYearChange,
}: {
  walletId: string;
  year: number;
  onYearChange: (year: number) => void;
}) {
  const { t } = useTranslation('wallet');
  const stats = useQuery(yearlyStatsQuery(walletId, year));
  const months = t('months', { returnObjects: true }) as string[];
  const bars = monthlyBars(stats.data, months);
  const label = t('chartLabel', { year });
  return (
    <Paper withBorder p="md" radius="md" h="100%">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t('chartTitle')}</Text>
        <Select
          aria-label={t('common:year')}
          w={110}
          data={pickerYears(new Date()).map(String)}
          value={String(year)}
          allowDeselect={false}
          onChange={(v) => v && onYearChange(Number(v))}
        />
      </Group>
      <div style={{ height: 220 }} role="img" aria-label={label} data-testid="yearly-chart">
        <BarChart
          data={bars}
          keys={['count']}
          indexBy="month"
          margin={{ top: 10, right: 10, bottom: 30, left: 40 }}
          padding={0.3}
          colors={['#2b8a3e']}
          enableLabel={false}
          axisLeft={{ tickValues: 5 }}
          isInteractive
          animate={false}
          role="presentation"
        />
      </div>
    </Paper>
  );
}
