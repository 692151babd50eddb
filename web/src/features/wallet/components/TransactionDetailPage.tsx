import { Anchor, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isApiError } from '../../../shared/api/api-error.js';
import { formatDate } from '../../../shared/format/date.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { transactionQuery } from '../api/transactions.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';
import type { DetailParty, TransactionDetail } from '../model/types.js';
import { SignedAmount } from './SignedAmount.js';
import { WalletStatusBadge } from './WalletStatusBadge.js';

function Field({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="sm" c="dark.5">
        {label}
      </Text>
      <Text fw={600} component="div" data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** The other side of the payment: who paid an incoming one, who received an outgoing one. */
function counterpartyOf(tx: TransactionDetail): DetailParty | null {
  const party = tx.direction === 'IN' ? tx.sender : tx.beneficiary;
  return party?.name ? party : null;
}

/**
 * 'Détail paiement de {name}' for a payment the user made (the spec's title); a payment
 * received names its sender; a withdrawal, its refund and a supply say what they are.
 */
function titleOf(tx: TransactionDetail | undefined, t: TFunction<'wallet'>): string {
  if (!tx) return t('detail.titles.payment');
  switch (tx.operationType) {
    case 'DEBIT':
      return t('detail.titles.DEBIT');
    case 'REFUND':
      return t('detail.titles.REFUND');
    case 'SUPPLY':
      return t('detail.titles.SUPPLY');
  }
  const name = counterpartyOf(tx)?.name;
  if (!name) return t('detail.titles.payment');
  return tx.direction === 'IN'
    ? t('detail.titles.received', { name })
    : t('detail.title', { name });
}

/**
 * paiementShow: reference, signed amount, date and time, type, status, the real means of
 * payment, reason, the other side (sender or beneficiary, with NIP and phone) or the account
 * a withdrawal went to. Delivered quantity and date are placeholders (spec).
 */
export function TransactionDetailPage({ id }: { id: string }) {
  const { t } = useTranslation('wallet');
  useRealtime();
  const router = useRouter();
  const query = useQuery({ ...transactionQuery(id), retry: false });
  const tx = query.data;
  const other = tx ? counterpartyOf(tx) : null;
  const withdrawal = tx?.operationType === 'DEBIT' || tx?.operationType === 'REFUND';
  const incoming = tx?.direction === 'IN';
  return (
    <Stack>
      <Anchor
        component="button"
        type="button"
        onClick={() => router.history.back()}
        w="fit-content"
      >
        <IconArrowLeft size={14} aria-hidden /> {t('common:back')}
      </Anchor>
      <PageTitle>{titleOf(tx, t)}</PageTitle>
      {query.isError ? (
        <Text role="alert">
          {isApiError(query.error, 404) ? t('detail.notFound') : t('errors:unexpected')}
        </Text>
      ) : (
        <Paper withBorder p="lg" radius="md" aria-busy={query.isLoading}>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            <Field label={t('detail.reference')} value={tx?.reference ?? '—'} />
            <Field
              label={t('detail.amount')}
              value={
                tx ? <SignedAmount amount={tx.amount} direction={tx.direction} currency /> : '—'
              }
              testId="detail-amount"
            />
            <Field label={t('detail.date')} value={formatDate(tx?.date)} />
            <Field
              label={t('detail.type')}
              value={
                tx
                  ? t(`operationTypes.${tx.operationType}`, { defaultValue: tx.operationType })
                  : '—'
              }
            />
            <Field
              label={t('detail.status')}
              value={tx ? <WalletStatusBadge status={tx.status} /> : '—'}
            />
            <Field
              label={t('detail.means')}
              value={
                tx?.paymentMeans
                  ? t(`detail.meansLabels.${tx.paymentMeans}`, { defaultValue: tx.paymentMeans })
                  : '—'
              }
              testId="detail-means"
            />
            <Field label={t('detail.reason')} value={tx?.reason || '—'} />
            {withdrawal ? (
              <Field
                label={t('detail.payoutAccount')}
                value={tx?.payoutAccount || '—'}
                testId="detail-payout"
              />
            ) : (
              <Field
                label={incoming ? t('detail.sender') : t('detail.beneficiary')}
                value={other?.name ?? '—'}
                testId="detail-counterparty"
              />
            )}
            <Field label={t('detail.nip')} value={other?.nip ?? '—'} />
            <Field label={t('detail.phone')} value={other?.phone ?? '—'} />
            <Field label={t('detail.deliveredQuantity')} value="—" />
            <Field label={t('detail.deliveredDate')} value="—" />
          </SimpleGrid>
        </Paper>
      )}
    </Stack>
  );
}
