import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatMoney } from '../../../../shared/format/money.js';
import { DataTable, type Column } from '../../../../shared/ui/DataTable.js';
import { DownloadButton } from '../../../../shared/ui/DownloadButton.js';
import { notify } from '../../../../shared/ui/notify.js';
import { PaginationBar } from '../../../../shared/ui/PaginationBar.js';
import { StatCard } from '../../../reporting/dashboard/components/StatCard.js';
import {
  balanceAtQuery,
  downloadStatement,
  statementQuery,
  STATEMENT_PAGE_SIZE,
  type Movement,
} from '../api/statement.js';

/** Today in Benin (UTC+1), YYYY-MM-DD. */
const beninToday = () => new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
const monthStart = () => `${beninToday().slice(0, 8)}01`;

const periodSchema = z
  .object({
    from: z.iso.date({ error: 'invalidDate' }),
    to: z.iso.date({ error: 'invalidDate' }),
  })
  .refine((p) => p.from <= p.to, { path: ['to'], message: 'toBeforeFrom' });
type Period = z.infer<typeof periodSchema>;

const instantSchema = z.object({
  at: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, { error: 'invalidInstant' }),
});

/**
 * A wallet's statement between two days (opening balance, movements a page at a time,
 * closing balance, 'Télécharger' as .xlsx) and its balances at an instant: the wallet's
 * owner on its own wallet, the auditor on any.
 */
export function StatementView({ walletId, title }: { walletId: string; title?: string }) {
  const { t } = useTranslation('audit');
  const errorText = useErrorText();
  const [period, setPeriod] = useState<Period>({ from: monthStart(), to: beninToday() });
  const [page, setPage] = useState(1);
  const [at, setAt] = useState<string | null>(null);
  const statement = useQuery(statementQuery(walletId, period.from, period.to, page));
  const balance = useQuery({ ...balanceAtQuery(walletId, at ?? ''), enabled: at !== null });
  const periodForm = useForm<Period>({
    resolver: zodResolver(periodSchema),
    defaultValues: period,
  });
  const instantForm = useForm<{ at: string }>({
    resolver: zodResolver(instantSchema),
    defaultValues: { at: '' },
  });
  const s = statement.data;
  const money = (v: number | undefined) => (v === undefined ? null : formatMoney(v));
  const signed = (v: number) => (v > 0 ? `+${formatMoney(v)}` : formatMoney(v));
  const columns: Column<Movement & { id: number }>[] = [
    { name: 'recordedAt', title: t('columns.date'), transform: (m) => formatDate(m.recordedAt) },
    {
      name: 'type',
      title: t('columns.operation'),
      transform: (m) => t(`movements.${m.type}`, { defaultValue: m.type }),
    },
    { name: 'reference', title: t('columns.reference'), transform: (m) => m.reference ?? '—' },
    { name: 'amount', title: t('columns.amount'), transform: (m) => signed(m.amount) },
    { name: 'balance', title: t('columns.balance'), transform: (m) => formatMoney(m.balance) },
    {
      name: 'availableBalance',
      title: t('columns.availableBalance'),
      transform: (m) => formatMoney(m.availableBalance),
    },
  ];
  const fieldError = (message: string | undefined) =>
    message ? t(`errors.${message}`) : undefined;
  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md" component="section" aria-label={t('statement.title')}>
        <Stack gap="md">
          <Title order={2} size="h4">
            {title ?? t('statement.title')}
            {s ? ` — ${s.owner.lastname} ${s.owner.firstname}` : ''}
          </Title>
          <form
            noValidate
            onSubmit={periodForm.handleSubmit((p) => {
              setPeriod(p);
              setPage(1);
            })}
          >
            <Group align="flex-end">
              <TextInput
                type="date"
                label={t('statement.from')}
                {...periodForm.register('from')}
                error={fieldError(periodForm.formState.errors.from?.message)}
              />
              <TextInput
                type="date"
                label={t('statement.to')}
                {...periodForm.register('to')}
                error={fieldError(periodForm.formState.errors.to?.message)}
              />
              <Button type="submit">{t('statement.show')}</Button>
              <DownloadButton
                disabled={!s}
                onDownload={async () => {
                  try {
                    await downloadStatement(walletId, period.from, period.to);
                  } catch (error) {
                    notify('error', errorText(error));
                  }
                }}
              />
            </Group>
          </form>
          {statement.isError && (
            <Text c="red.8" role="alert">
              {errorText(statement.error)}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
            <StatCard
              name="opening"
              label={t('statement.opening')}
              value={money(s?.opening.balance)}
              loading={statement.isLoading}
            />
            <StatCard
              name="credits"
              label={t('statement.credits')}
              value={money(s?.credits)}
              loading={statement.isLoading}
            />
            <StatCard
              name="debits"
              label={t('statement.debits')}
              value={money(s?.debits)}
              loading={statement.isLoading}
            />
            <StatCard
              name="closing"
              label={t('statement.closing')}
              value={money(s?.closing.balance)}
              loading={statement.isLoading}
            />
          </SimpleGrid>
          <DataTable
            columns={columns}
            rows={s?.movements.map((m) => ({ ...m, id: m.position }))}
            loading={statement.isLoading}
            caption={t('statement.movements')}
          />
          <PaginationBar
            page={page}
            total={s?.count ?? 0}
            perPage={STATEMENT_PAGE_SIZE}
            onChange={setPage}
          />
        </Stack>
      </Paper>
      <Paper withBorder p="md" radius="md" component="section" aria-label={t('balanceAt.title')}>
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('balanceAt.title')}
          </Title>
          <form
            noValidate
            onSubmit={instantForm.handleSubmit(({ at: local }) =>
              // The instant typed is Benin's time (UTC+1).
              setAt(new Date(`${local.length === 16 ? `${local}:00` : local}+01:00`).toISOString()),
            )}
          >
            <Group align="flex-end">
              <TextInput
                type="datetime-local"
                step={1}
                label={t('balanceAt.instant')}
                {...instantForm.register('at')}
                error={fieldError(instantForm.formState.errors.at?.message)}
              />
              <Button type="submit">{t('balanceAt.ask')}</Button>
            </Group>
          </form>
          {balance.isError && (
            <Text c="red.8" role="alert">
              {errorText(balance.error)}
            </Text>
          )}
          {at !== null && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <StatCard
                name="balanceAt"
                label={t('balanceAt.balance')}
                value={money(balance.data?.balance)}
                loading={balance.isLoading}
              />
              <StatCard
                name="availableAt"
                label={t('balanceAt.available')}
                value={money(balance.data?.availableBalance)}
                loading={balance.isLoading}
              />
            </SimpleGrid>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
