import { Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCompact } from '../model/compact.js';
import type { MonthValue } from '../model/months.js';
import { BarChart } from '../../../../shared/ui/BarChart.js';

/**
 * A bar chart of twelve months (Jan … Déc), its axis in K, M, Md. Screen readers get the
 * chart's title as its name and the same figures as a table (the bars are drawn only).
 */
export function MonthlyChart({
  name,
  title,
  unit,
  bars,
  format,
  color,
}: {
  name: string;
  title: string;
  /** The unit of the values, said in the table's header ('Tonnes', 'F CFA'). */
  unit: string;
  bars: MonthValue[];
  /** A value in full (the table and the bar's tooltip). */
  format: (value: number) => string;
  color: string;
}) {
  const { t, i18n } = useTranslation('dashboard');
  const titleId = useId();
  const data = bars.map((b) => ({ month: b.month, value: b.value }));
  const empty = bars.every((b) => b.value === 0);
  return (
    <Paper withBorder p="md" radius="md" h="100%">
      <Text id={titleId} fw={600} mb="sm">
        {title}
      </Text>
      <div
        style={{ height: 240 }}
        role="img"
        aria-labelledby={titleId}
        data-testid={`chart-${name}`}
      >
        <BarChart
          data={data}
          keys={['value']}
          indexBy="month"
          margin={{ top: 10, right: 10, bottom: 30, left: 56 }}
          padding={0.3}
          colors={[color]}
          enableLabel={false}
          axisLeft={{ tickValues: 5, format: (v: number) => formatCompact(v, i18n.language) }}
          valueFormat={(v) => format(v)}
          isInteractive
          animate={false}
          role="presentation"
        />
      </div>
      {empty && (
        <Text size="sm" c="dark.4" ta="center">
          {t('charts.empty')}
        </Text>
      )}
      <VisuallyHidden>
        <Table id={`${name}-table`}>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t('charts.month')}</th>
              <th scope="col">{unit}</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr key={b.key}>
                <th scope="row">{b.month}</th>
                <td>{format(b.value)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </VisuallyHidden>
    </Paper>
  );
}
