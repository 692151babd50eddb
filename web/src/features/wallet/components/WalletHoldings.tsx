import { Anchor, Group, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/format/date.js';
import { formatMoney } from '../../../shared/format/money.js';
import { PaginationBar } from '../../../shared/ui/PaginationBar.js';
import { walletHoldsQuery, type WalletHold } from '../api/holds.js';

const PER_PAGE = 5;

/** The page of the record a hold keeps money for, as a link (the reference alone otherwise). */
function HoldLink({ hold }: { hold: WalletHold }) {
  const { t } = useTranslation('wallet');
  const label = t('holdings.open', { reference: hold.reference });
  if (hold.kind === 'DELIVERY_CONTRACT' && hold.targetId) {
    return (
      <Anchor
        renderRoot={(props) => (
          <Link {...props} to="/contrats/livraison/show/$id" params={{ id: hold.targetId! }} />
        )}
        aria-label={label}
      >
        {hold.reference}
      </Anchor>
    );
  }
  if (hold.kind === 'INPUT_ASSIGNMENT' && hold.targetId) {
    return (
      <Anchor
        renderRoot={(props) => (
          <Link {...props} to="/contrats/fourniture/$id" params={{ id: hold.targetId! }} />
        )}
        aria-label={label}
      >
        {hold.reference}
      </Anchor>
    );
  }
  if (hold.kind === 'CARRIAGE_CONTRACT') {
    return (
      <Anchor
        renderRoot={(props) => <Link {...props} to="/contrats/transport" />}
        aria-label={label}
      >
        {hold.reference}
      </Anchor>
    );
  }
  return <Text span>{hold.reference}</Text>;
}

/**
 * 'Mon Wallet''s split of the balance: available, held (by what holds it, each linked to its
 * contract or input supply contract, paginated) and total — available + held = total.
 */
export function WalletHoldings() {
  const { t } = useTranslation('wallet');
  const [page, setPage] = useState(1);
  const holds = useQuery(walletHoldsQuery(page));
  const data = holds.data;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="wallet-holdings">
      <Text id="wallet-holdings" size="sm" fw={600} mb="xs">
        {t('holdings.title')}
      </Text>
      {!data ? (
        holds.isError ? (
          <Text size="sm">{t('holdings.error')}</Text>
        ) : (
          <Loader size="sm" aria-label={t('holdings.loading')} />
        )
      ) : (
        <Stack gap="xs">
          <dl style={{ margin: 0 }}>
            {(
              [
                ['available', data.available],
                ['held', data.held],
                ['total', data.total],
              ] as const
            ).map(([key, amount]) => (
              <Group key={key} justify="space-between" wrap="nowrap" gap="xs">
                <Text component="dt" size="sm" c="dark.5">
                  {t(`holdings.${key}`)}
                </Text>
                <Text
                  component="dd"
                  m={0}
                  fw={key === 'total' ? 700 : 500}
                  data-testid={`wallet-holdings-${key}`}
                >
                  {formatMoney(amount)}
                </Text>
              </Group>
            ))}
          </dl>
          {data.count === 0 ? (
            <Text size="sm" c="dark.5">
              {t('holdings.none')}
            </Text>
          ) : (
            <>
              <Table.ScrollContainer minWidth={0}>
                <Table data-testid="wallet-holds">
                  <Table.Caption>{t('holdings.caption')}</Table.Caption>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('holdings.columns.what')}</Table.Th>
                      <Table.Th ta="right">{t('holdings.columns.amount')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.data.map((hold) => (
                      <Table.Tr key={hold.holdId}>
                        <Table.Td>
                          <Text size="xs" c="dark.5">
                            {t(`holdings.kinds.${hold.kind}`)}
                            {hold.since ? ` · ${formatDate(hold.since)}` : ''}
                          </Text>
                          <HoldLink hold={hold} />
                        </Table.Td>
                        <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {formatMoney(hold.amount)}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <PaginationBar page={page} total={data.count} perPage={PER_PAGE} onChange={setPage} />
            </>
          )}
        </Stack>
      )}
    </Paper>
  );
}
