import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Timeline,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { formatMoney } from '../../../shared/format/money.js';
import type { ListSearch } from '../../../shared/search/list-search.js';
import { DataTable, type Column } from '../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../shared/ui/ListPage.js';
import { notify } from '../../../shared/ui/notify.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { PaginationBar } from '../../../shared/ui/PaginationBar.js';
import {
  EXCEPTION_STATUSES,
  KINDS,
  SOURCES,
  act,
  daysQuery,
  downloadReport,
  exceptionQuery,
  exceptionsQuery,
  summaryQuery,
  type DayRow,
  type ExceptionRow,
  type ExceptionStatus,
  type Kind,
  type Source,
} from '../api/reconciliation.js';

export interface ReconciliationSearch extends ListSearch<ExceptionStatus> {
  source?: Source | undefined;
  kind?: Kind | undefined;
  days?: number | undefined;
}

const FINANCE = ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN'];

/**
 * 'Rapprochement' (finance and the platform's auditor): the super admin's card, each day's
 * status per source with its .xlsx report, then the exceptions (search, state, source and
 * kind, pages of 10); an exception opens with its history and, for finance, its actions.
 * Live: the `reconciliation.changed` push refreshes every query here.
 */
export function ReconciliationPage({
  search,
  onSearchChange,
}: {
  search: ReconciliationSearch;
  onSearchChange: (next: Partial<ReconciliationSearch>) => void;
}) {
  const { t } = useTranslation('reconciliation');
  const user = useCurrentUser();
  const role = user?.role?.code ?? '';
  const [openId, setOpenId] = useState<string | null>(null);
  const days = useQuery(daysQuery(search.days ?? 1, search.source));
  const exceptions = useQuery(
    exceptionsQuery({
      page: search.page ?? 1,
      q: search.q,
      status: search.status,
      source: search.source,
      kind: search.kind,
    }),
  );
  const dayColumns: Column<DayRow & { id: string }>[] = [
    { name: 'day', title: t('days.day') },
    { name: 'source', title: t('days.source'), transform: (d) => t(`sources.${d.source}`) },
    {
      name: 'status',
      title: t('days.status'),
      transform: (d) => (
        <Badge
          color={d.status === 'RECONCILED' ? 'teal' : d.status === 'EXCEPTIONS' ? 'red' : 'yellow'}
        >
          {t(`dayStatus.${d.status}`)}
        </Badge>
      ),
    },
    { name: 'matched', title: t('days.matched'), transform: (d) => d.figures.matched ?? 0 },
    {
      name: 'unmatchedProvider',
      title: t('days.unmatchedProvider'),
      transform: (d) => formatMoney(d.figures.unmatchedProviderAmount ?? 0),
    },
    {
      name: 'unmatchedLedger',
      title: t('days.unmatchedLedger'),
      transform: (d) => formatMoney(d.figures.unmatchedLedgerAmount ?? 0),
    },
    {
      name: 'differences',
      title: t('days.differences'),
      transform: (d) => formatMoney(d.figures.differencesAmount ?? 0),
    },
    {
      name: 'report',
      title: t('days.report'),
      transform: (d) => (
        <Button
          size="xs"
          variant="light"
          aria-label={t('days.download', { day: d.day, source: t(`sources.${d.source}`) })}
          onClick={() =>
            void downloadReport(d.source, d.day).catch(() => notify('error', t('errors.report')))
          }
        >
          {t('days.xlsx')}
        </Button>
      ),
    },
  ];
  const exceptionColumns: Column<ExceptionRow>[] = [
    { name: 'day', title: t('exceptions.day') },
    { name: 'source', title: t('days.source'), transform: (e) => t(`sources.${e.source}`) },
    {
      name: 'kind',
      title: t('exceptions.kind'),
      transform: (e) => (
        <Button variant="subtle" size="compact-sm" onClick={() => setOpenId(e.id)}>
          {t(`kinds.${e.kind}`)}
        </Button>
      ),
    },
    {
      name: 'amount',
      title: t('exceptions.amount'),
      transform: (e) =>
        formatMoney(e.kind === 'AMOUNT_MISMATCH' ? Math.abs(e.difference) : e.amount),
    },
    { name: 'reference', title: t('exceptions.reference'), transform: (e) => e.reference ?? '—' },
    {
      name: 'status',
      title: t('exceptions.status'),
      transform: (e) => (
        <Group gap={4}>
          <Badge color={e.status === 'OPEN' ? 'red' : 'gray'}>{t(`status.${e.status}`)}</Badge>
          {e.proposal && <Badge color="yellow">{t('exceptions.awaiting')}</Badge>}
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="lg">
      <PageTitle>{t('title')}</PageTitle>
      {role === 'ROLE_SUPER_ADMIN' && <SummaryCard />}
      <Paper withBorder p="md" radius="md">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4">
            {t('days.title')}
          </Title>
          <Select
            aria-label={t('filters.source')}
            placeholder={t('filters.allSources')}
            clearable
            data={SOURCES.map((s) => ({ value: s, label: t(`sources.${s}`) }))}
            value={search.source ?? null}
            onChange={(v) =>
              onSearchChange({
                source: (v as Source | null) ?? undefined,
                days: undefined,
                page: undefined,
              })
            }
          />
        </Group>
        <DataTable
          columns={dayColumns}
          rows={days.data?.data.map((d) => ({ ...d, id: `${d.source}-${d.day}` }))}
          loading={days.isLoading}
          caption={t('days.title')}
        />
        <PaginationBar
          page={search.days ?? 1}
          total={days.data?.count ?? 0}
          perPage={10}
          onChange={(p) => onSearchChange({ days: p })}
        />
      </Paper>
      <ListPanel<ExceptionRow, ExceptionStatus>
        header={
          <Title order={2} size="h4" mb="sm">
            {t('exceptions.title')}
          </Title>
        }
        search={search}
        onSearchChange={onSearchChange}
        searchPlaceholder={t('exceptions.search')}
        statuses={{ values: EXCEPTION_STATUSES, label: (s) => t(`status.${s}`) }}
        filters={
          <Select
            aria-label={t('filters.kind')}
            placeholder={t('filters.allKinds')}
            clearable
            data={KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
            value={search.kind ?? null}
            onChange={(v) =>
              onSearchChange({ kind: (v as Kind | null) ?? undefined, page: undefined })
            }
          />
        }
        columns={exceptionColumns}
        list={exceptions}
        caption={t('exceptions.title')}
      />
      {openId && (
        <ExceptionModal
          id={openId}
          finance={FINANCE.includes(role)}
          onClose={() => setOpenId(null)}
        />
      )}
    </Stack>
  );
}

/** The super admin's card: what is not reconciled, and since when. */
export function SummaryCard() {
  const { t } = useTranslation('reconciliation');
  const summary = useQuery(summaryQuery);
  return (
    <Stack gap="xs">
      <Anchor component={Link} to="/rapprochement" fw={600}>
        {t('title')}
      </Anchor>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Paper withBorder p="md" radius="md">
          <Text size="sm" c="dimmed">
            {t('summary.amount')}
          </Text>
          <Text fw={700} size="xl">
            {summary.data ? formatMoney(summary.data.unreconciledAmount) : t('loading')}
          </Text>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Text size="sm" c="dimmed">
            {t('summary.open')}
          </Text>
          <Text fw={700} size="xl">
            {summary.data ? summary.data.openExceptions : t('loading')}
          </Text>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Text size="sm" c="dimmed">
            {t('summary.oldest')}
          </Text>
          <Text fw={700} size="xl">
            {summary.data ? (summary.data.oldestOpenDay ?? t('summary.none')) : t('loading')}
          </Text>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

function ExceptionModal({
  id,
  finance,
  onClose,
}: {
  id: string;
  finance: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('reconciliation');
  const errorText = useErrorText();
  const client = useQueryClient();
  const detail = useQuery(exceptionQuery(id));
  const [note, setNote] = useState('');
  const [target, setTarget] = useState('');
  const [counterpart, setCounterpart] = useState('');
  const run = useMutation({
    mutationFn: ({ action, body }: { action: string; body: object }) => act(id, action, body),
    onSuccess: async () => {
      notify('success', t('done'));
      setNote('');
      await client.invalidateQueries({ queryKey: ['reconciliation'] });
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const e = detail.data;
  const action =
    e?.kind === 'MISSING_IN_LEDGER' && e.direction === 'IN'
      ? 'CREDIT_SUPPLY'
      : e?.kind === 'MISSING_AT_PROVIDER' && e.direction === 'OUT'
        ? 'FAIL_PAYOUT'
        : null;
  return (
    <Modal opened onClose={onClose} title={e ? t(`kinds.${e.kind}`) : t('loading')} size="lg">
      {!e ? (
        <Text>{t('loading')}</Text>
      ) : (
        <Stack>
          <Text size="sm">
            {t(`sources.${e.source}`)} · {e.day} · {formatMoney(e.amount)} · {e.reference ?? '—'} ·{' '}
            {t(`status.${e.status}`)}
          </Text>
          {e.proposal && (
            <Text size="sm">
              {t('exceptions.proposal', {
                action: t(`actions.${e.proposal.action}`),
                target: e.proposal.target,
              })}
            </Text>
          )}
          <Title order={3} size="h5">
            {t('history.title')}
          </Title>
          <Timeline active={e.history.length}>
            {e.history.map((h) => (
              <Timeline.Item key={`${h.type}-${h.at}`} title={t(`history.${h.type}`)}>
                <Text size="xs" c="dimmed">
                  {new Date(h.at).toLocaleString('fr-FR', { timeZone: 'Africa/Porto-Novo' })}
                </Text>
                {h.note && <Text size="sm">{h.note}</Text>}
              </Timeline.Item>
            ))}
          </Timeline>
          {finance && e.status === 'OPEN' && (
            <Stack gap="xs">
              <Textarea
                label={t('form.note')}
                value={note}
                onChange={(ev) => setNote(ev.currentTarget.value)}
              />
              {e.proposal ? (
                <Group>
                  <Button
                    onClick={() => run.mutate({ action: 'approve', body: {} })}
                    loading={run.isPending}
                  >
                    {t('form.approve')}
                  </Button>
                  <Button
                    variant="light"
                    color="red"
                    onClick={() => run.mutate({ action: 'reject', body: { note } })}
                  >
                    {t('form.reject')}
                  </Button>
                </Group>
              ) : (
                action && (
                  <Group align="flex-end">
                    <TextInput
                      label={t(action === 'CREDIT_SUPPLY' ? 'form.supply' : 'form.payout')}
                      value={target}
                      onChange={(ev) => setTarget(ev.currentTarget.value)}
                    />
                    <Button
                      onClick={() =>
                        run.mutate({ action: 'propose', body: { action, target, note } })
                      }
                    >
                      {t(`actions.${action}`)}
                    </Button>
                  </Group>
                )
              )}
              {e.kind !== 'AMOUNT_MISMATCH' && (
                <Group align="flex-end">
                  <TextInput
                    label={t(e.lineKey ? 'form.movementKey' : 'form.lineKey')}
                    value={counterpart}
                    onChange={(ev) => setCounterpart(ev.currentTarget.value)}
                  />
                  <Button
                    variant="light"
                    onClick={() =>
                      run.mutate({ action: 'link', body: { counterpartKey: counterpart, note } })
                    }
                  >
                    {t('form.link')}
                  </Button>
                </Group>
              )}
              <Button
                variant="outline"
                color="gray"
                onClick={() => run.mutate({ action: 'close', body: { reason: note } })}
              >
                {t('form.close')}
              </Button>
            </Stack>
          )}
        </Stack>
      )}
    </Modal>
  );
}
