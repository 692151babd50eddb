import { Anchor, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error.js';
import { formatDate } from '../../../shared/format/date.js';
import { formatMoney } from '../../../shared/format/money.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { transactionQuery } from '../api/transactions.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" c="dark.5">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

/** 'Détail paiement de {name}' (paiementShow). Delivered quantity and date are placeholders. */
export function TransactionDetailPage({ id }: { id: string }) {
  const { t } = useTranslation('wallet');
  useRealtime();
  const router = useRouter();
  const query = useQuery({ ...transactionQuery(id), retry: false });
  const tx = query.data;
  const name = tx?.beneficiary.name || '—';
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
      <PageTitle>{t('detail.title', { name })}</PageTitle>
      {query.isError ? (
        <Text role="alert">
          {isApiError(query.error, 404) ? t('detail.notFound') : t('errors:unexpected')}
        </Text>
      ) : (
        <Paper withBorder p="lg" radius="md" aria-busy={query.isLoading}>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            <Field label={t('detail.reference')} value={tx?.reference ?? '—'} />
            <Field label={t('detail.amount')} value={tx ? formatMoney(tx.amount) : '—'} />
            <Field label={t('detail.date')} value={formatDate(tx?.date)} />
            <Field label={t('detail.means')} value={t('detail.mobileMoney')} />
            <Field label={t('detail.reason')} value={tx?.reason || '—'} />
            <Field label={t('detail.beneficiary')} value={name} />
            <Field label={t('detail.nip')} value={tx?.beneficiary.nip ?? '—'} />
            <Field label={t('detail.phone')} value={tx?.beneficiary.phone ?? '—'} />
            <Field label={t('detail.deliveredQuantity')} value="—" />
            <Field label={t('detail.deliveredDate')} value="—" />
          </SimpleGrid>
        </Paper>
      )}
    </Stack>
  );
}
