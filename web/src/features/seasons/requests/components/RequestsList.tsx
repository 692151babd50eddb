import {
  ActionIcon,
  Anchor,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Menu,
  Paper,
  Tabs,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconDotsVertical, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../../shared/api/use-idempotency-key.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatNumber } from '../../../../shared/format/money.js';
import { DataTable, type Column } from '../../../../shared/ui/DataTable.js';
import { ListToolbar } from '../../../../shared/ui/ListToolbar.js';
import { notify } from '../../../../shared/ui/notify.js';
import { PaginationBar } from '../../../../shared/ui/PaginationBar.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';
import {
  acceptRequests,
  rejectRequests,
  requestKeys,
  requestListQuery,
  type BulkAnswer,
  type RequestRow,
} from '../api/requests.js';
import {
  REQUEST_STATUSES,
  STATUS_KIND,
  bulkOutcome,
  type RequestStatus,
  type RequestType,
  type RequestsSearch,
} from '../model/requests.js';
import { AcceptRequestsModal, RejectRequestsModal } from './DecisionModals.js';

/** A warning toast: the spec shows accept and reject refusals as warnings. */
function warn(message: string): void {
  notifications.show({ color: 'orange', message, autoClose: 8000 });
}

export interface RequestsListProps {
  type: RequestType;
  /** Whose requests: a user id (the signed-in user's), or the SFD's own SOCIAL list. */
  owner: { userId: string } | 'social';
  seasonId?: number | undefined;
  search: RequestsSearch;
  onSearchChange: (next: Partial<RequestsSearch>) => void;
  /** The signed-in user handles these requests (accept, reject). */
  canDecide: boolean;
  /** Above the status tabs (the season tab's type tabs). */
  header?: ReactNode;
}

/**
 * A grower requests list (spec §2.4): status tabs ('Demandes en cours', 'Demandes
 * confirmées', 'Demandes rejetées'; CREATED by default), search, pages of 10, the type's
 * columns; for the handler, multi-select of CREATED rows with the bottom bar, the row menu
 * (Accepter / Rejeter) and the accept and reject modals. Refusals show as warning toasts and
 * the list refreshes.
 */
export function RequestsList({
  type,
  owner,
  seasonId,
  search,
  onSearchChange,
  canDecide,
  header,
}: RequestsListProps) {
  const { t } = useTranslation('seasonRequests');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const status: RequestStatus = search.status ?? 'CREATED';
  const params = { page: search.page ?? 1, status, q: search.q, seasonId };
  const list = useQuery(requestListQuery(owner, type, params));
  const [selected, setSelected] = useState<Map<number, string>>(new Map());
  const [accepting, setAccepting] = useState<number[] | null>(null);
  const [rejecting, setRejecting] = useState<number[] | null>(null);
  const acceptKey = useIdempotencyKey();
  const rejectKey = useIdempotencyKey();
  const decides = canDecide && status === 'CREATED';

  const after = async (answer: BulkAnswer, success: string) => {
    const outcome = bulkOutcome(answer);
    if (outcome.success) notify('success', success);
    for (const message of outcome.warnings) warn(message);
    setSelected(new Map());
    await queryClient.invalidateQueries({ queryKey: requestKeys.all });
  };
  const failed = async (error: unknown) => {
    warn(errorText(error));
    await queryClient.invalidateQueries({ queryKey: requestKeys.all });
  };
  const accept = useMutation({
    mutationFn: (ids: number[]) => acceptRequests(ids, acceptKey.current()),
    onSuccess: async (answer) => {
      acceptKey.renew();
      setAccepting(null);
      await after(answer, t('accepted'));
    },
    onError: async (error) => {
      acceptKey.renew();
      setAccepting(null);
      await failed(error);
    },
  });
  const reject = useMutation({
    mutationFn: ({ ids, reason }: { ids: number[]; reason: string }) =>
      rejectRequests(
        ids.map((id) => ({ id, reason })),
        rejectKey.current(),
      ),
    onSuccess: async (answer) => {
      rejectKey.renew();
      setRejecting(null);
      await after(answer, t('rejected'));
    },
    onError: async (error) => {
      rejectKey.renew();
      setRejecting(null);
      await failed(error);
    },
  });

  const rows = list.data?.values ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggle = (row: RequestRow, on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(row.id, row.reference);
      else next.delete(row.id);
      return next;
    });
  const change = (next: Partial<RequestsSearch>) => {
    setSelected(new Map());
    onSearchChange(next);
  };

  const growerName = (r: RequestRow) => `${r.grower.user.firstname} ${r.grower.user.lastname}`;
  const date: Column<RequestRow> = {
    name: 'createdAt',
    title: t('columns.date'),
    transform: (r) => formatDate(r.createdAt),
  };
  const byType: Record<RequestType, Column<RequestRow>[]> = {
    INPUT: [
      {
        name: 'fertilizer',
        title: t('columns.fertilizer'),
        transform: (r) => r.fertilizer?.label ?? '—',
      },
      {
        name: 'quantity',
        title: t('columns.quantityKg'),
        transform: (r) => formatNumber(r.quantity ?? 0),
      },
      date,
    ],
    PINEAPLE: [
      { name: 'amount', title: t('columns.amount'), transform: (r) => formatNumber(r.amount) },
      {
        name: 'quantity',
        title: t('columns.pineappleKg'),
        transform: (r) => formatNumber(r.quantity ?? 0),
      },
      date,
    ],
    SOCIAL: [
      { name: 'amount', title: t('columns.amount'), transform: (r) => formatNumber(r.amount) },
      date,
    ],
  };
  const columns: Column<RequestRow>[] = [
    ...(decides
      ? [
          {
            name: 'select',
            title: (
              <Checkbox
                aria-label={t('selectAll')}
                checked={allSelected}
                indeterminate={!allSelected && rows.some((r) => selected.has(r.id))}
                disabled={rows.length === 0}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  for (const r of rows) toggle(r, on);
                }}
              />
            ),
            transform: (r: RequestRow) => (
              <Checkbox
                aria-label={t('selectRow', { reference: r.reference })}
                checked={selected.has(r.id)}
                onChange={(e) => toggle(r, e.currentTarget.checked)}
              />
            ),
          },
        ]
      : []),
    { name: 'reference', title: t('columns.reference') },
    {
      name: 'grower',
      title: t('columns.grower'),
      transform: (r) => (
        <Anchor
          renderRoot={(props) => (
            <Link {...props} to="/producteurs/show/$id" params={{ id: r.grower.id }} />
          )}
        >
          {growerName(r)}
        </Anchor>
      ),
    },
    ...byType[type],
    ...(status === 'CONFIRMED' && type === 'INPUT'
      ? [
          {
            name: 'code',
            title: t('columns.code'),
            transform: (r: RequestRow) => (
              <Group gap={6} wrap="nowrap">
                <Text size="sm" ff="monospace">
                  {r.code ?? '—'}
                </Text>
                {r.deliveryStatus && (
                  <StatusBadge
                    kind={r.deliveryStatus === 'DONE' ? 'success' : 'warning'}
                    label={t(`delivery.${r.deliveryStatus}`)}
                  />
                )}
              </Group>
            ),
          },
        ]
      : []),
    ...(status === 'REJECTED'
      ? [
          {
            name: 'reason',
            title: t('columns.reason'),
            transform: (r: RequestRow) => r.reason ?? '—',
          },
        ]
      : []),
    {
      name: 'status',
      title: t('columns.status'),
      transform: (r) => (
        <StatusBadge kind={STATUS_KIND[r.status]} label={t(`statuses.${r.status}`)} />
      ),
    },
    ...(decides
      ? [
          {
            name: 'action',
            title: t('columns.action'),
            transform: (r: RequestRow) => (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('rowMenu', { reference: r.reference })}
                  >
                    <IconDotsVertical size={18} aria-hidden />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item
                    leftSection={<IconCheck size={16} aria-hidden />}
                    onClick={() => setAccepting([r.id])}
                  >
                    {t('accept')}
                  </Menu.Item>
                  <Menu.Item
                    color="red.8"
                    leftSection={<IconX size={16} aria-hidden />}
                    onClick={() => setRejecting([r.id])}
                  >
                    {t('reject')}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      {header}
      <Tabs
        value={status}
        onChange={(value) =>
          change({ status: (value as RequestStatus) ?? undefined, page: undefined })
        }
        mb="md"
      >
        <Tabs.List>
          {REQUEST_STATUSES.map((s) => (
            <Tabs.Tab key={s} value={s}>
              {t(`tabs.${s}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <ListToolbar
        q={search.q}
        placeholder={t('searchPlaceholder')}
        onSearch={(q) => change({ q, page: undefined })}
      />
      <DataTable
        columns={columns}
        rows={list.data?.values}
        loading={list.isLoading}
        caption={t(`titles.${type}`)}
      />
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
      <PaginationBar
        page={search.page ?? 1}
        total={list.data?.count ?? 0}
        perPage={PAGE_SIZE}
        onChange={(page) => change({ page })}
      />
      {decides && selected.size > 0 && (
        <Paper
          withBorder
          shadow="md"
          p="sm"
          mt="md"
          radius="md"
          pos="sticky"
          bottom={16}
          style={{ zIndex: 5 }}
          data-testid="requests-bar"
        >
          <Group justify="space-between">
            <Text fw={500} role="status">
              {t('selection', { count: selected.size })}
            </Text>
            <Group gap="sm">
              <Button onClick={() => setAccepting([...selected.keys()])}>{t('acceptMany')}</Button>
              <Button
                color="red"
                variant="light"
                onClick={() => setRejecting([...selected.keys()])}
              >
                {t('rejectMany')}
              </Button>
              <CloseButton
                aria-label={t('clearSelection')}
                onClick={() => setSelected(new Map())}
              />
            </Group>
          </Group>
        </Paper>
      )}
      <AcceptRequestsModal
        count={accepting?.length ?? 0}
        opened={accepting !== null}
        pending={accept.isPending}
        onClose={() => setAccepting(null)}
        onConfirm={() => accepting && accept.mutate(accepting)}
      />
      <RejectRequestsModal
        count={rejecting?.length ?? 0}
        opened={rejecting !== null}
        pending={reject.isPending}
        onClose={() => setRejecting(null)}
        onConfirm={(reason) => rejecting && reject.mutate({ ids: rejecting, reason })}
      />
    </>
  );
}
