import { notify } from '../../../shared/ui/notify.js';
import { Button, Grid, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowsExchange, IconCash, IconFileText } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { can } from '../../../shared/auth/permissions.js';
import { formatDate } from '../../../shared/format/date.js';
import { formatMoney } from '../../../shared/format/money.js';
import { DownloadButton } from '../../../shared/ui/DownloadButton.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { useAfterPaint } from '../../../shared/ui/use-after-paint.js';
import { walletStatsQuery } from '../api/stats.js';
import { exportTransactions, transactionsQuery } from '../api/transactions.js';
import type { TransactionListSearch } from '../model/search.js';
import { TransactionsTable } from './TransactionsTable.js';
import { TransferFlow } from './TransferFlow.js';
import { WalletHoldings } from './WalletHoldings.js';
import { WithdrawFlow } from './WithdrawFlow.js';
import { YearlyChart } from './YearlyChart.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';

/**
 * 'Mon Wallet': balance with Transférer/Retirer and the link to the wallet's statement
 * (/wallet/releve), its split (available, held by what, total), last transaction, yearly
 * chart, transactions.
 */
export function WalletPage({
  search,
  onSearchChange,
}: {
  search: TransactionListSearch;
  onSearchChange: (next: Partial<TransactionListSearch>) => void;
}) {
  const { t } = useTranslation('wallet');
  useRealtime();
  const errorText = useErrorText();
  const me = useCurrentUser();
  const stats = useQuery(walletStatsQuery);
  const any = useQuery(transactionsQuery({ page: 1 }));
  const [flow, setFlow] = useState<'transfer' | 'withdraw' | null>(null);
  const year = search.year ?? new Date().getFullYear();
  const balance = stats.data ? (stats.data.availableBalance ?? stats.data.balance) : null;
  const nothing = any.isSuccess && any.data.count === 0;
  // The balance first: the chart and the transactions (their selects each measure the page, a
  // few hundred milliseconds of a phone's CPU) are rendered once its frame has been painted.
  const painted = useAfterPaint();

  return (
    <>
      <PageTitle>{t('title')}</PageTitle>
      <Grid mb="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack h="100%">
            <Paper withBorder p="md" radius="md">
              <Text size="sm" c="dark.5">
                {t('availableBalance')}
              </Text>
              <Text fz={28} fw={700} data-testid="wallet-available">
                {balance === null ? '—' : formatMoney(balance)}
              </Text>
              <Group mt="md">
                {can(me, 'wallet.transfer') && (
                  <Button
                    leftSection={<IconArrowsExchange size={16} aria-hidden />}
                    onClick={() => setFlow('transfer')}
                  >
                    {t('transfer')}
                  </Button>
                )}
                {can(me, 'wallet.withdraw') && (
                  <Button
                    variant="default"
                    leftSection={<IconCash size={16} aria-hidden />}
                    onClick={() => setFlow('withdraw')}
                  >
                    {t('withdraw')}
                  </Button>
                )}
              </Group>
              <Button
                component={Link}
                to="/wallet/releve"
                variant="subtle"
                px={0}
                mt="xs"
                leftSection={<IconFileText size={16} aria-hidden />}
              >
                {t('statementLink')}
              </Button>
            </Paper>
            <WalletHoldings />
            <Paper withBorder p="md" radius="md">
              <Text size="sm" c="dark.5">
                {t('lastTransaction')}
              </Text>
              {stats.data?.lastTransactionDate ? (
                <>
                  <Text fz="xl" fw={700} data-testid="wallet-last-amount">
                    {formatMoney(stats.data.lastTransactionAmout ?? 0)}
                  </Text>
                  <Text size="sm">{formatDate(stats.data.lastTransactionDate)}</Text>
                </>
              ) : (
                <Text>{t('noTransaction')}</Text>
              )}
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          {painted && me?.walletId && (
            <YearlyChart
              walletId={me.walletId}
              year={year}
              onYearChange={(y) => onSearchChange({ year: y })}
            />
          )}
        </Grid.Col>
      </Grid>
      {painted && (
        <TransactionsTable
          search={search}
          onSearchChange={onSearchChange}
          caption={t('transactions')}
          actions={
            me && (
              <DownloadButton
                disabled={nothing}
                onDownload={async () => {
                  try {
                    if (!(await exportTransactions(me.id))) {
                      notify('info', t('nothingToDownload'));
                    }
                  } catch (error) {
                    notify('error', errorText(error));
                  }
                }}
              />
            )
          }
        />
      )}
      {me && (
        <>
          {can(me, 'wallet.transfer') && (
            <TransferFlow opened={flow === 'transfer'} onClose={() => setFlow(null)} me={me} />
          )}
          {can(me, 'wallet.withdraw') && (
            <WithdrawFlow opened={flow === 'withdraw'} onClose={() => setFlow(null)} me={me} />
          )}
        </>
      )}
    </>
  );
}
