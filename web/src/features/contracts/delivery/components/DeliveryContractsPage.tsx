import { ActionIcon, Button, Checkbox, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconEye, IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../../shared/api/use-idempotency-key.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatDay } from '../../batches/model/format.js';
import { formatNumber } from '../../../../shared/format/money.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { notify } from '../../../../shared/ui/notify.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import {
  contractKeys,
  deliveredCountQuery,
  deliveryContractsQuery,
  runContracts,
  runDeliveredContracts,
  type ContractListRow,
} from '../api/delivery-contracts.js';
import {
  CONTRACT_FILTERS,
  STATUS_KIND,
  isRunnable,
  type ContractFilter,
  type DeliveryContractsSearch,
} from '../model/statuses.js';
import { AggregatorFilter } from './AggregatorFilter.js';
import { RunContractsModal } from './RunContractsModal.js';
import { RunProgressPanel } from './RunProgressPanel.js';
import { formatDecimal } from '../../../../shared/format/number.js';

/**
 * contratsLivraisons (§2.5): the delivery contracts — the aggregator's own (searchable by
 * reference and grower), every aggregator's for the super admin and the admin; filters all /
 * waiting / ready for delivery / 'Livraison disponible' (ready to run, its count in the
 * filter and above the list) / executed / out of time, pagination of 10; the grower and
 * French dates on every row. The aggregator selects DELIVERED rows and runs them, or runs
 * every delivered contract at once ('Exécuter' → 'Action irrécersible'); the run's progress
 * shows live (pushes `contracts.run`), and the list follows `contracts.updated`.
 */
export function DeliveryContractsPage({
  search,
  onSearchChange,
}: {
  search: DeliveryContractsSearch;
  onSearchChange: (next: Partial<DeliveryContractsSearch>) => void;
}) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const role = me?.role?.code;
  const isAggregator = role === ROLES.INDUSTRIAL;
  const seesAll = role === ROLES.SUPER_ADMIN || role === ROLES.ADMIN;
  const list = useQuery({
    ...deliveryContractsQuery({ id: me?.id ?? '', seesAll }, search),
    enabled: Boolean(me?.id),
  });
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  // What is confirmed: the selection, or every delivered contract ('all').
  const [confirming, setConfirming] = useState<'selection' | 'all' | null>(null);
  const runKey = useIdempotencyKey();
  const delivered = useQuery({
    ...deliveredCountQuery(seesAll ? search.aggregator : me?.id),
    enabled: Boolean(me?.id),
  });
  const deliveredCount = delivered.data ?? 0;

  const run = useMutation({
    mutationFn: (what: 'selection' | 'all') =>
      what === 'all'
        ? runDeliveredContracts(runKey.current())
        : runContracts([...selected.keys()], runKey.current()),
    onSuccess: async (answer) => {
      runKey.renew();
      setConfirming(null);
      setSelected(new Map());
      notify('success', t('run.toast'));
      onSearchChange({ run: answer.runId });
      await queryClient.invalidateQueries({ queryKey: contractKeys.all });
    },
  });

  const rows = list.data?.data ?? [];
  const runnable = rows.filter((r) => isRunnable(r.status));
  const allSelected = runnable.length > 0 && runnable.every((r) => selected.has(r.id));
  const toggle = (row: ContractListRow, on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(row.id, row.reference);
      else next.delete(row.id);
      return next;
    });

  const columns: Column<ContractListRow>[] = [
    ...(isAggregator
      ? [
          {
            name: 'select',
            title: (
              <Checkbox
                aria-label={t('selectAll')}
                checked={allSelected}
                indeterminate={!allSelected && runnable.some((r) => selected.has(r.id))}
                disabled={runnable.length === 0}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  for (const r of runnable) toggle(r, on);
                }}
              />
            ),
            transform: (r: ContractListRow) =>
              isRunnable(r.status) ? (
                <Checkbox
                  aria-label={t('selectRow', { reference: r.reference })}
                  checked={selected.has(r.id)}
                  onChange={(e) => toggle(r, e.currentTarget.checked)}
                />
              ) : (
                <Tooltip label={t('notRunnable')}>
                  <Checkbox
                    aria-label={t('selectRow', { reference: r.reference })}
                    disabled
                    checked={false}
                    onChange={() => undefined}
                  />
                </Tooltip>
              ),
          },
        ]
      : []),
    { name: 'reference', title: t('columns.reference') },
    { name: 'grower', title: t('columns.grower'), transform: (r) => r.grower ?? '—' },
    {
      name: 'quantity',
      title: t('columns.quantity'),
      transform: (r) => formatDecimal(r.quantity),
    },
    {
      name: 'amount',
      title: t('columns.amount'),
      transform: (r) => formatNumber(r.amount),
    },
    {
      name: 'deliveryDate',
      title: t('columns.deliveryDate'),
      transform: (r) => formatDay(r.deliveryDate),
    },
    {
      name: 'createdAt',
      title: t('columns.createdAt'),
      transform: (r) => formatDate(r.createdAt),
    },
    {
      name: 'status',
      title: t('columns.status'),
      transform: (r) => (
        <StatusBadge
          kind={STATUS_KIND[r.status] ?? 'success'}
          label={t(`statuses.${r.status}`, { defaultValue: r.status })}
        />
      ),
    },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (r) => (
        <ActionIcon
          variant="subtle"
          renderRoot={(props) => (
            <Link {...props} to="/contrats/livraison/show/$id" params={{ id: r.id }} />
          )}
          aria-label={t('view', { reference: r.reference })}
        >
          <IconEye size={18} aria-hidden />
        </ActionIcon>
      ),
    },
  ];

  return (
    <ListPage<ContractListRow, ContractFilter>
      title={t('title')}
      action={
        isAggregator && (
          <Button
            component={Link}
            to="/contrats/livraison/create"
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('add')}
          </Button>
        )
      }
      search={search}
      onSearchChange={(next) => {
        // Another page keeps the selection; another search or filter starts a new one.
        if (Object.keys(next).some((k) => k !== 'page')) setSelected(new Map());
        onSearchChange(next);
      }}
      searchPlaceholder={t('searchPlaceholder')}
      statuses={{
        values: CONTRACT_FILTERS,
        label: (f) =>
          f === 'delivered' && delivered.data !== undefined
            ? t('filters.deliveredCount', { count: deliveredCount })
            : t(`filters.${f}`),
      }}
      filters={
        seesAll && (
          <AggregatorFilter
            value={search.aggregator}
            onChange={(aggregator) => {
              setSelected(new Map());
              onSearchChange({ aggregator, page: undefined });
            }}
          />
        )
      }
      columns={columns}
      list={list}
      header={
        <>
          {search.run && (
            <RunProgressPanel
              runId={search.run}
              onDismiss={() => onSearchChange({ run: undefined })}
            />
          )}
          {isAggregator && deliveredCount > 0 && (
            <Paper withBorder p="sm" mb="md" radius="sm" data-testid="ready-to-run">
              <Group justify="space-between">
                <Text fw={500}>{t('readyToRun', { count: deliveredCount })}</Text>
                <Group gap="sm">
                  {search.status !== 'delivered' && (
                    <Button
                      variant="default"
                      onClick={() => {
                        setSelected(new Map());
                        onSearchChange({ status: 'delivered', page: undefined });
                      }}
                    >
                      {t('showDelivered')}
                    </Button>
                  )}
                  <Button
                    color="red"
                    leftSection={<IconPlayerPlay size={16} aria-hidden />}
                    onClick={() => {
                      run.reset();
                      setConfirming('all');
                    }}
                  >
                    {t('run.all', { count: deliveredCount })}
                  </Button>
                </Group>
              </Group>
            </Paper>
          )}
          {isAggregator && selected.size > 0 && (
            <Paper withBorder p="sm" mb="md" radius="sm" bg="gray.0" data-testid="run-bar">
              <Group justify="space-between">
                <Text fw={500} role="status">
                  {t('selection', { count: selected.size })}
                </Text>
                <Group gap="sm">
                  <Button variant="default" onClick={() => setSelected(new Map())}>
                    {t('clearSelection')}
                  </Button>
                  <Button
                    color="red"
                    leftSection={<IconPlayerPlay size={16} aria-hidden />}
                    onClick={() => {
                      run.reset();
                      setConfirming('selection');
                    }}
                  >
                    {t('run.button')}
                  </Button>
                </Group>
              </Group>
            </Paper>
          )}
        </>
      }
    >
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
      <RunContractsModal
        opened={confirming !== null}
        count={confirming === 'all' ? deliveredCount : selected.size}
        pending={run.isPending}
        error={run.isError ? errorText(run.error) : null}
        onClose={() => setConfirming(null)}
        onConfirm={() => confirming && run.mutate(confirming)}
      />
    </ListPage>
  );
}
