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
  FileInput,
  Timeline,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
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
  STATEMENT_FORMATS,
  act,
  bankCodesQuery,
  daysQuery,
  downloadReport,
  exceptionQuery,
  exceptionsQuery,
  importStatement,
  ownersQuery,
  runDay,
  summaryQuery,
  type BankMappingRow,
  type ImportResult,
  type StatementFormat,
  type DayRow,
  type ExceptionRow,
  type ExceptionStatus,
  type Kind,
  type Source,
} from '../api/reconciliation.js';
import { BankMappingModal, BankMappingsPanel } from './BankMappings.js';

export interface ReconciliationSearch extends ListSearch<ExceptionStatus> {
  source?: Source | undefined;
  kind?: Kind | undefined;
  days?: number | undefined;
  /** `me`, `none` or an owner's id. */
  owner?: string | undefined;
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
  /** The bank mapping form: `null` closed, `{ row: null }` adding one. */
  const [mappingForm, setMappingForm] = useState<{ row: BankMappingRow | null } | null>(null);
  /** The bank code the import form takes once a mapping is saved from it. */
  const [savedCode, setSavedCode] = useState<string | null>(null);
  const days = useQuery(daysQuery(search.days ?? 1, search.source));
  const exceptions = useQuery(
    exceptionsQuery({
      page: search.page ?? 1,
      q: search.q,
      status: search.status,
      source: search.source,
      kind: search.kind,
      owner: search.owner,
    }),
  );
  const owners = useQuery(ownersQuery);
  const dayColumns: Column<DayRow & { id: string }>[] = [
    { name: 'day', title: t('days.day') },
    { name: 'source', title: t('days.source'), transform: (d) => t(`sources.${d.source}`) },
    {
      name: 'status',
      title: t('days.status'),
      transform: (d) => (
        <StatusBadge
          tone={
            d.status === 'RECONCILED' ? 'success' : d.status === 'EXCEPTIONS' ? 'danger' : 'warning'
          }
        >
          {t(`dayStatus.${d.status}`)}
        </StatusBadge>
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
    { name: 'owner', title: t('exceptions.owner'), transform: (e) => e.ownerName ?? '—' },
    {
      name: 'status',
      title: t('exceptions.status'),
      transform: (e) => (
        <Group gap={4}>
          <StatusBadge tone={e.status === 'OPEN' ? 'danger' : 'neutral'}>
            {t(`status.${e.status}`)}
          </StatusBadge>
          {e.proposal && <StatusBadge tone="warning">{t('exceptions.awaiting')}</StatusBadge>}
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="lg">
      <PageTitle>{t('title')}</PageTitle>
      {role === 'ROLE_SUPER_ADMIN' && <SummaryCard />}
      {FINANCE.includes(role) && (
        <StatementImport savedCode={savedCode} onAddMapping={() => setMappingForm({ row: null })} />
      )}
      <BankMappingsPanel
        finance={FINANCE.includes(role)}
        onEdit={(row) => setMappingForm({ row })}
      />
      {FINANCE.includes(role) && (
        <BankMappingModal
          opened={mappingForm !== null}
          mapping={mappingForm?.row ?? null}
          onClose={() => setMappingForm(null)}
          onSaved={setSavedCode}
        />
      )}
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
          <>
            <Select
              aria-label={t('filters.owner')}
              placeholder={t('filters.allOwners')}
              clearable
              data={[
                ...(FINANCE.includes(role) ? [{ value: 'me', label: t('filters.mine') }] : []),
                { value: 'none', label: t('filters.noOwner') },
                ...(owners.data ?? []).map((o) => ({ value: o.id, label: o.name })),
              ]}
              value={search.owner ?? null}
              onChange={(v) => onSearchChange({ owner: v ?? undefined, page: undefined })}
            />
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
          </>
        }
        columns={exceptionColumns}
        list={exceptions}
        caption={t('exceptions.title')}
      />
      {openId && (
        <ExceptionModal
          id={openId}
          me={user?.id ?? ''}
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

/** Finance imports a statement file (the format recognised, or chosen), then closes a day. */
function StatementImport({
  savedCode,
  onAddMapping,
}: {
  /** A bank code just saved from the mapping form: the import takes it. */
  savedCode: string | null;
  onAddMapping: () => void;
}) {
  const { t } = useTranslation('reconciliation');
  const errorText = useErrorText();
  const client = useQueryClient();
  const [source, setSource] = useState<'BANK' | 'KKIAPAY'>('BANK');
  const [format, setFormat] = useState<StatementFormat | 'AUTO'>('AUTO');
  const [bankCode, setBankCode] = useState<string | null>(null);
  const [lastSaved, setLastSaved] = useState<string | null>(null);
  if (savedCode !== lastSaved) {
    setLastSaved(savedCode);
    if (savedCode) setBankCode(savedCode);
  }
  const codes = useQuery(bankCodesQuery);
  /** A CSV (chosen, or recognised from the content) is read with its bank's saved mapping. */
  const csv = format === 'CSV' || format === 'AUTO';
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [runSource, setRunSource] = useState<Source>('BANK');
  const [runDate, setRunDate] = useState('');
  const upload = useMutation({
    mutationFn: async (f: File) => {
      if (f.size > MAX_STATEMENT_BYTES) throw new Error(t('import.tooBig'));
      return importStatement({
        source,
        format: format === 'AUTO' ? undefined : format,
        content: await f.text(),
        bankCode: (csv && bankCode) || undefined,
      });
    },
    onSuccess: async (answer) => {
      setResult(answer);
      if (answer.days.length) setRunDate(answer.days[answer.days.length - 1]!);
      setRunSource(source);
      await client.invalidateQueries({ queryKey: ['reconciliation'] });
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const run = useMutation({
    mutationFn: () => runDay({ source: runSource, day: runDate }),
    onSuccess: async (answer) => {
      notify('success', t('run.done', { matched: answer.matched, opened: answer.opened }));
      await client.invalidateQueries({ queryKey: ['reconciliation'] });
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        {t('import.title')}
      </Title>
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t('import.source')}
            data={(['BANK', 'KKIAPAY'] as const).map((s) => ({
              value: s,
              label: t(`sources.${s}`),
            }))}
            value={source}
            allowDeselect={false}
            onChange={(v) => setSource((v as 'BANK' | 'KKIAPAY' | null) ?? 'BANK')}
          />
          <Select
            label={t('import.format')}
            data={[
              { value: 'AUTO', label: t('import.auto') },
              ...STATEMENT_FORMATS.map((f) => ({ value: f, label: t(`import.formats.${f}`) })),
            ]}
            value={format}
            allowDeselect={false}
            onChange={(v) => setFormat((v as StatementFormat | 'AUTO' | null) ?? 'AUTO')}
          />
          {csv && (
            <Stack gap={4}>
              <Select
                label={t('import.bankCode')}
                description={t('import.bankCodeHelp')}
                placeholder={
                  codes.data && codes.data.count === 0 ? t('import.noBankCode') : undefined
                }
                data={(codes.data?.data ?? []).map((m) => m.bankCode)}
                value={bankCode}
                allowDeselect={false}
                clearable
                searchable
                onChange={setBankCode}
              />
              <Anchor component="button" type="button" size="sm" onClick={onAddMapping}>
                {t('import.addBankCode')}
              </Anchor>
            </Stack>
          )}
        </Group>
        <Group align="flex-end" wrap="wrap">
          <FileInput
            label={t('import.file')}
            placeholder={t('import.choose')}
            accept=".sta,.mt940,.940,.txt,.xml,.csv,text/plain,text/csv,application/xml,text/xml"
            clearable
            clearButtonProps={{ 'aria-label': t('import.clear') }}
            value={file}
            onChange={(value) => {
              upload.reset();
              setResult(null);
              setFile(value);
            }}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button
            disabled={!file}
            loading={upload.isPending}
            onClick={() => file && upload.mutate(file)}
          >
            {t('import.submit')}
          </Button>
        </Group>
        {result && (
          <Text size="sm" role="status">
            {t('import.result', { recorded: result.recorded, known: result.known })}
            {result.conflicts.length > 0 &&
              ` ${t('import.conflicts', { list: result.conflicts.join(', ') })}`}
          </Text>
        )}
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t('run.source')}
            data={SOURCES.map((s) => ({ value: s, label: t(`sources.${s}`) }))}
            value={runSource}
            allowDeselect={false}
            onChange={(v) => setRunSource((v as Source | null) ?? 'BANK')}
          />
          <TextInput
            type="date"
            label={t('run.day')}
            value={runDate}
            onChange={(ev) => setRunDate(ev.currentTarget.value)}
          />
          <Button
            variant="light"
            disabled={!runDate}
            loading={run.isPending}
            onClick={() => run.mutate()}
          >
            {t('run.submit')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Light badge colours with text dark enough for WCAG AA (4.5:1) on the tinted background. */
const TONES = {
  success: { color: 'teal', text: '#05523b' },
  warning: { color: 'orange', text: '#7a2e05' },
  danger: { color: 'red', text: '#9b1111' },
  neutral: { color: 'gray', text: '#343a40' },
} as const;

function StatusBadge({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return (
    <Badge
      color={TONES[tone].color}
      variant="light"
      styles={{ label: { textTransform: 'none', color: TONES[tone].text } }}
    >
      {children}
    </Badge>
  );
}

/** The API refuses a statement above 1.5 MB of text. */
const MAX_STATEMENT_BYTES = 1_500_000;

function ExceptionModal({
  id,
  me,
  finance,
  onClose,
}: {
  id: string;
  me: string;
  finance: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('reconciliation');
  const errorText = useErrorText();
  const client = useQueryClient();
  const detail = useQuery(exceptionQuery(id));
  const owners = useQuery({ ...ownersQuery, enabled: finance });
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
    <Modal
      opened
      onClose={onClose}
      title={e ? t(`kinds.${e.kind}`) : t('loading')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      {!e ? (
        <Text>{t('loading')}</Text>
      ) : (
        <Stack>
          <Text size="sm">
            {t(`sources.${e.source}`)} · {e.day} · {formatMoney(e.amount)} · {e.reference ?? '—'} ·{' '}
            {t(`status.${e.status}`)}
          </Text>
          <Text size="sm">{t('exceptions.ownedBy', { name: e.ownerName ?? '—' })}</Text>
          {finance && e.status === 'OPEN' && (
            <Group align="flex-end" wrap="wrap">
              <Select
                label={t('form.assign')}
                data={(owners.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
                value={e.ownerUserId}
                allowDeselect={false}
                onChange={(v) => v && run.mutate({ action: 'assign', body: { ownerUserId: v } })}
              />
              {e.ownerUserId !== me && (
                <Button
                  variant="light"
                  onClick={() => run.mutate({ action: 'assign', body: { ownerUserId: me } })}
                >
                  {t('form.assignMe')}
                </Button>
              )}
            </Group>
          )}
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
                  {h.userName && ` · ${t('history.by', { name: h.userName })}`}
                </Text>
                {h.ownerName && <Text size="sm">{t('history.to', { name: h.ownerName })}</Text>}
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
