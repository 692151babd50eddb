import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatAmount, type SeasonAmounts } from '../model/index.js';

/**
 * The three amount cards of a quantity (spec §2.7 step 3, §2.3): 'Total à payer', 'Montant
 * des engrais', 'Montant min à appro', as the server computed them.
 */
export function AmountCards({ amounts }: { amounts: SeasonAmounts }) {
  const { t } = useTranslation('seasons');
  const card = (label: string, value: number, testId: string) => (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dark.5">
        {label}
      </Text>
      <Text fz="lg" fw={700} data-testid={testId}>
        {formatAmount(value)}
      </Text>
    </Paper>
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {card(t('industrials.productionAmount'), amounts.productionAmount, 'amount-production')}
      {card(t('industrials.fertilizerAmount'), amounts.fertilizerAmount, 'amount-fertilizer')}
      {card(t('industrials.minSupplyAmount'), amounts.minSupplyAmount, 'amount-min-supply')}
    </SimpleGrid>
  );
}
