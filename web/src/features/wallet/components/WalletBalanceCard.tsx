import { ActionIcon, Group, Paper, Text } from '@mantine/core';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../shared/format/money.js';
import { walletStatsQuery } from '../api/stats.js';

/**
 * Balance card of the side navigation: hidden as dots until the eye is
 * pressed; '—' while the wallet API does not answer. (A click will open the
 * wallet page once it exists.)
 */
export function WalletBalanceCard() {
  const { t } = useTranslation('nav');
  const [shown, setShown] = useState(false);
  const stats = useQuery(walletStatsQuery);
  const value = stats.data ? formatMoney(stats.data.availableBalance ?? stats.data.balance) : '—';
  return (
    <Paper p="sm" radius="md" bg="leaf.9" c="white" data-testid="wallet-card">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text size="xs" c="white">
            {t('wallet.title')}
          </Text>
          <Text fw={700} fz="lg" c="white" data-testid="wallet-balance">
            {shown ? value : '••••••'}
          </Text>
        </div>
        <ActionIcon
          variant="subtle"
          color="white"
          onClick={() => setShown((s) => !s)}
          aria-label={t(shown ? 'wallet.hide' : 'wallet.show')}
          aria-pressed={shown}
        >
          {shown ? <IconEyeOff size={18} /> : <IconEye size={18} />}
        </ActionIcon>
      </Group>
    </Paper>
  );
}
