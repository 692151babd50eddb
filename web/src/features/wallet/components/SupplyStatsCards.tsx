import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../../shared/format/money.js';
import { supplyStatsQuery } from '../api/supplies.js';

/** Available balance, last supply amount, number of supplies. */
export function SupplyStatsCards({ userId }: { userId: string }) {
  const { t } = useTranslation('wallet');
  const stats = useQuery(supplyStatsQuery(userId)).data;
  const card = (label: string, value: string, testId: string) => (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dark.5">
        {label}
      </Text>
      <Text fz="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} mb="lg">
      {card(
        t('supplies.stats.availableBalance'),
        stats ? formatMoney(stats.availableBalance) : '—',
        'supply-available',
      )}
      {card(
        t('supplies.stats.lastSupply'),
        stats?.lastSupplyAmount != null ? formatMoney(stats.lastSupplyAmount) : '—',
        'supply-last',
      )}
      {card(t('supplies.stats.count'), stats ? formatNumber(stats.supplies) : '—', 'supply-count')}
    </SimpleGrid>
  );
}
