import { ActionIcon, Group, Paper, Text, UnstyledButton } from '@mantine/core';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../shared/format/money.js';
import { hasScreen } from '../../../shared/navigation/menu.js';
import { routeByKey } from '../../../shared/navigation/routes.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';
import { walletStatsQuery } from '../api/stats.js';
import { useSupplyNotices } from '../hooks/use-supply-notices.js';
import { useWithdrawalNotices } from '../hooks/use-withdrawal-notices.js';

/**
 * Balance card of the side navigation: hidden as dots until the eye is
 * pressed; '—' while the wallet API does not answer. A click opens the wallet
 * page when its route exists.
 */
export function WalletBalanceCard() {
  const { t } = useTranslation('nav');
  const [shown, setShown] = useState(false);
  const stats = useQuery(walletStatsQuery);
  // The side card is in every signed-in screen: it keeps the websocket open (live balance).
  useRealtime();
  // …and tells how a withdrawal ended, whichever screen is open.
  useWithdrawalNotices();
  useSupplyNotices();
  const value = stats.data ? formatMoney(stats.data.availableBalance ?? stats.data.balance) : '—';
  const balance = (
    <>
      <Text size="xs" c="white">
        {t('wallet.title')}
      </Text>
      <Text fw={700} fz="lg" c="white" data-testid="wallet-balance">
        {shown ? value : '••••••'}
      </Text>
    </>
  );
  return (
    <Paper p="sm" radius="md" bg="leaf.9" c="white" data-testid="wallet-card">
      <Group justify="space-between" wrap="nowrap">
        {hasScreen(routeByKey('wallet')) ? (
          <UnstyledButton
            component={Link}
            to={routeByKey('wallet').path}
            c="white"
            title={t('wallet.open')}
          >
            {balance}
          </UnstyledButton>
        ) : (
          <div>{balance}</div>
        )}
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
