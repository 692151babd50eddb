import { Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/format/date.js';
import { formatNumber } from '../../../shared/format/money.js';
import { PAGE_SIZE, type ListSearch } from '../../../shared/search/list-search.js';
import { DataTable, type Column } from '../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../shared/ui/ListPage.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { PaginationBar } from '../../../shared/ui/PaginationBar.js';
import { StatusBadge, type BadgeKind } from '../../../shared/ui/StatusBadge.js';
import {
  SMS_KINDS,
  SMS_STATUSES,
  smsCountsQuery,
  smsListQuery,
  type SmsKind,
  type SmsRow,
  type SmsStatus,
  type Tally,
} from '../api/sms.js';

export interface SmsSearch extends ListSearch<SmsStatus> {
  kind?: SmsKind | undefined;
}

const STATUS_KIND: Record<SmsStatus, BadgeKind> = {
  queued: 'warning',
  sending: 'colorize',
  sent: 'colorize',
  delivered: 'success',
  failed: 'danger',
};

/**
 * 'SMS' (super admin, admins): every message sent to members, its state and the way it went
 * (written, sent, delivered or failed and why), codes masked; and what they cost, per grower
 * and per season. The list refreshes on `sms.changed`.
 */
export function SmsPage({
  search,
  onSearchChange,
}: {
  search: SmsSearch;
  onSearchChange: (next: Partial<SmsSearch>) => void;
}) {
  const { t } = useTranslation('messaging');
  const list = useQuery(
    smsListQuery({
      page: search.page ?? 1,
      q: search.q,
      status: search.status,
      kind: search.kind,
    }),
  );
  const columns: Column<SmsRow>[] = [
    {
      name: 'recipient',
      title: t('list.recipient'),
      transform: (m) => (
        <Stack gap={0}>
          <Text size="sm">{m.recipientName ?? t('list.unknownMember')}</Text>
          <Text size="xs" c="dimmed">
            {m.recipient}
          </Text>
        </Stack>
      ),
    },
    { name: 'kind', title: t('list.kind'), transform: (m) => t(`kinds.${m.kind}`) },
    {
      name: 'text',
      title: t('list.text'),
      transform: (m) =>
        m.text ?? (
          <Text size="sm" fs="italic" c="dimmed">
            {t('list.masked')}
          </Text>
        ),
    },
    {
      name: 'status',
      title: t('list.status'),
      transform: (m) => (
        <StatusBadge kind={STATUS_KIND[m.status]} label={t(`status.${m.status}`)} />
      ),
    },
    { name: 'history', title: t('list.history'), transform: (m) => <History sms={m} /> },
    {
      name: 'segments',
      title: t('list.segments'),
      transform: (m) => (m.segments === null ? '—' : formatNumber(m.segments)),
    },
  ];
  return (
    <Stack gap="lg">
      <PageTitle>{t('title')}</PageTitle>
      <ListPanel<SmsRow, SmsStatus>
        header={
          <Title order={2} size="h4" mb="sm">
            {t('list.title')}
          </Title>
        }
        search={search}
        onSearchChange={onSearchChange}
        searchPlaceholder={t('list.search')}
        statuses={{ values: SMS_STATUSES, label: (s) => t(`status.${s}`) }}
        filters={
          <Select
            aria-label={t('list.kindFilter')}
            placeholder={t('list.allKinds')}
            clearable
            w={220}
            data={SMS_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
            value={search.kind ?? null}
            onChange={(v) =>
              onSearchChange({ kind: (v as SmsKind | null) ?? undefined, page: undefined })
            }
          />
        }
        columns={columns}
        list={list}
        caption={t('list.title')}
      />
      <Counts />
    </Stack>
  );
}

/** The states a message went through, each with its time; the attempts and the last reason. */
function History({ sms }: { sms: SmsRow }) {
  const { t } = useTranslation('messaging');
  const steps: [string, string | null][] = [
    [t('history.written'), sms.createdAt],
    [t('history.sent'), sms.sentAt],
    [t('history.delivered'), sms.deliveredAt],
    [t('history.failed'), sms.failedAt],
  ];
  return (
    <Stack gap={0}>
      {steps
        .filter(([, at]) => at !== null)
        .map(([label, at]) => (
          <Text size="xs" key={label}>
            {label} : {formatDate(at)}
          </Text>
        ))}
      {sms.attempts > 1 && <Text size="xs">{t('history.attempts', { count: sms.attempts })}</Text>}
      {sms.failure && (
        <Text size="xs" c={sms.status === 'failed' ? 'red.9' : 'dimmed'}>
          {sms.status === 'failed'
            ? t('history.reason', { reason: sms.failure })
            : t('history.lastError', { reason: sms.failure })}
        </Text>
      )}
    </Stack>
  );
}

/** What the messages cost: per grower (the 100 with the most) and per season. */
function Counts() {
  const { t } = useTranslation('messaging');
  const counts = useQuery(smsCountsQuery);
  const [page, setPage] = useState(1);
  const tallyColumns = <Row extends Tally>(): Column<Row>[] => [
    { name: 'messages', title: t('counts.messages'), transform: (r) => formatNumber(r.messages) },
    {
      name: 'states',
      title: t('counts.states'),
      label: t('counts.states'),
      transform: (r) =>
        t('counts.byState', {
          queued: formatNumber(r.queued),
          sent: formatNumber(r.sent),
          delivered: formatNumber(r.delivered),
          failed: formatNumber(r.failed),
        }),
    },
    { name: 'segments', title: t('counts.segments'), transform: (r) => formatNumber(r.segments) },
  ];
  const users = (counts.data?.byUser ?? []).map((u) => ({ ...u, id: u.userId }));
  const seasons = (counts.data?.bySeason ?? []).map((s) => ({ ...s, id: s.seasonId }));
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          {t('counts.byUser')}
        </Title>
        <DataTable
          columns={[
            { name: 'name', title: t('counts.member') },
            ...tallyColumns<(typeof users)[number]>(),
          ]}
          rows={
            counts.isLoading ? undefined : users.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
          }
          loading={counts.isLoading}
          caption={t('counts.byUser')}
        />
        <PaginationBar page={page} total={users.length} perPage={PAGE_SIZE} onChange={setPage} />
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          {t('counts.bySeason')}
        </Title>
        <DataTable
          columns={[
            {
              name: 'season',
              title: t('counts.season'),
              transform: (s) => t('counts.seasonNumber', { id: s.seasonId }),
            },
            ...tallyColumns<(typeof seasons)[number]>(),
          ]}
          rows={counts.isLoading ? undefined : seasons}
          loading={counts.isLoading}
          caption={t('counts.bySeason')}
        />
        <Text size="xs" c="dimmed" mt="xs">
          {t('counts.cost')}
        </Text>
      </Paper>
    </SimpleGrid>
  );
}
