import { Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { formatDate } from '../../../../shared/format/date.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { listQuery, type ListSearch } from '../../../../shared/search/list-search.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { payoutRequestsQuery } from '../api/payout-requests.js';
import { REQUEST_STATUSES, type PayoutRequest, type RequestStatus } from '../model/types.js';
import { AccountSummary } from './AccountSummary.js';
import { ApprovePayoutModal, RejectPayoutModal } from './DecidePayoutModals.js';

const fullName = (p: { firstname: string; lastname: string }) => `${p.firstname} ${p.lastname}`;

/**
 * Super admin: 'Demandes de changement de compte' — the requests to change a member's payout
 * account, pending ones first; 'Approuver' or 'Rejeter' (with a reason) on a pending request
 * that someone else made (four eyes: one's own shows who must decide instead).
 */
export function PayoutRequestsPage({
  search,
  onSearchChange,
}: {
  search: ListSearch<RequestStatus>;
  onSearchChange: (next: ListSearch<RequestStatus>) => void;
}) {
  const { t } = useTranslation('payout');
  const me = useCurrentUser();
  const list = useQuery(payoutRequestsQuery(listQuery(search)));
  const [approving, setApproving] = useState<PayoutRequest | null>(null);
  const [rejecting, setRejecting] = useState<PayoutRequest | null>(null);
  const columns: Column<PayoutRequest>[] = [
    {
      name: 'member',
      title: t('columns.member'),
      transform: (r) => (
        <div>
          <Text size="sm" fw={500}>
            {fullName(r.member)}
          </Text>
          <Text size="sm" c="dark.5">
            {t(`roles.${r.member.role}`, { defaultValue: r.member.role })} ·{' '}
            {toLocalPhone(r.member.phone) || '—'}
          </Text>
        </div>
      ),
    },
    {
      name: 'current',
      title: t('columns.current'),
      transform: (r) => <AccountSummary account={r.current} />,
    },
    {
      name: 'proposed',
      title: t('columns.proposed'),
      transform: (r) => <AccountSummary account={r.proposed} />,
    },
    {
      name: 'requestedBy',
      title: t('columns.requestedBy'),
      transform: (r) => (
        <div>
          <Text size="sm">{fullName(r.requestedBy)}</Text>
          <Text size="sm" c="dark.5">
            {formatDate(r.requestedAt)}
          </Text>
        </div>
      ),
    },
    {
      name: 'status',
      title: t('columns.status'),
      transform: (r) => (
        <div>
          <StatusBadge status={r.status} label={t(`statuses.${r.status}`)} />
          {r.decidedBy && (
            <Text size="xs" c="dark.5">
              {fullName(r.decidedBy)}
              {r.rejectionReason ? ` — ${r.rejectionReason}` : ''}
            </Text>
          )}
        </div>
      ),
    },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (r) =>
        r.status !== 'PENDING' ? null : r.requestedBy.id === me?.id ? (
          <Text size="xs" c="dark.5">
            {t('decide.ownRequest')}
          </Text>
        ) : (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="compact-sm"
              onClick={() => setApproving(r)}
              aria-label={t('decide.approveOf', { name: fullName(r.member) })}
            >
              {t('decide.approve')}
            </Button>
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              onClick={() => setRejecting(r)}
              aria-label={t('decide.rejectOf', { name: fullName(r.member) })}
            >
              {t('decide.reject')}
            </Button>
          </Group>
        ),
    },
  ];
  return (
    <ListPage
      title={t('title')}
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('searchPlaceholder')}
      statuses={{ values: REQUEST_STATUSES, label: (s) => t(`statuses.${s}`) }}
      columns={columns}
      list={list}
    >
      <ApprovePayoutModal request={approving} onClose={() => setApproving(null)} />
      <RejectPayoutModal request={rejecting} onClose={() => setRejecting(null)} />
    </ListPage>
  );
}
