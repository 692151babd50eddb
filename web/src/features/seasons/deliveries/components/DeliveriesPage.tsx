import { Button } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { IconTruckDelivery } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatMoney, formatNumber } from '../../../../shared/format/money.js';
import type { ListSearch } from '../../../../shared/search/list-search.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { deliveriesQuery, type DeliveryRow } from '../api/deliveries.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { useOfflineSync } from '../../../../shared/offline/app-queue.js';
import { DepotPanel } from '../offline/DepotPanel.js';
import { useDepot } from '../offline/depot.js';
import { OfflineDeliverModal } from '../offline/OfflineDeliverModal.js';
import { DeliverByCodeModal } from './DeliverByCodeModal.js';

/**
 * 'Demandes d'intrants' (/demande, spec §2.11): the input requests to deliver and
 * delivered — grower, input, quantity (kg), amount, date, status (DONE 'Validée', else
 * 'En attente de livraison') — searchable, 10 a page, and 'Livrer un producteur'. An input
 * provider also works offline (the depot): its requests are kept on the phone, a delivery
 * without network is checked on the phone and queued, and the queue is sent when it returns.
 */
export function DeliveriesPage({
  search,
  onSearchChange,
}: {
  search: ListSearch;
  onSearchChange: (next: Partial<ListSearch>) => void;
}) {
  const { t } = useTranslation('seasonInputs');
  const me = useCurrentUser();
  const list = useQuery(deliveriesQuery(me?.id ?? '', search));
  const [delivering, setDelivering] = useState(false);
  const { online } = useNetwork();
  const provider = me?.role?.code === ROLES.INPUT_PROVIDER;
  const owner = provider ? me?.id : undefined;
  const depot = useDepot(owner, online);
  useOfflineSync(owner);

  const columns: Column<DeliveryRow>[] = [
    {
      name: 'grower',
      title: t('deliveries.columns.grower'),
      transform: (r) => `${r.grower.firstname} ${r.grower.lastname}`,
    },
    { name: 'input', title: t('deliveries.columns.input'), transform: (r) => r.fertilizer.label },
    {
      name: 'quantity',
      title: t('deliveries.columns.quantity'),
      transform: (r) => formatNumber(r.quantity),
    },
    {
      name: 'amount',
      title: t('deliveries.columns.amount'),
      transform: (r) => formatMoney(r.amount),
    },
    {
      name: 'date',
      title: t('deliveries.columns.date'),
      transform: (r) => formatDate(r.receivedAt ?? r.createdAt),
    },
    {
      name: 'status',
      title: t('deliveries.columns.status'),
      transform: (r) =>
        r.status === 'DONE' ? (
          <StatusBadge kind="success" label={t('deliveries.statusDone')} />
        ) : (
          <StatusBadge kind="warning" label={t('deliveries.statusWaiting')} />
        ),
    },
  ];

  return (
    <ListPage
      title={t('deliveries.title')}
      action={
        <Button
          leftSection={<IconTruckDelivery size={18} aria-hidden />}
          onClick={() => setDelivering(true)}
        >
          {t('deliveries.deliver')}
        </Button>
      }
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('deliveries.searchPlaceholder')}
      columns={columns}
      list={list}
      {...(provider ? { header: <DepotPanel depot={depot} /> } : {})}
    >
      {provider && !online ? (
        <OfflineDeliverModal
          opened={delivering}
          onClose={() => setDelivering(false)}
          owner={me!.id}
          requests={depot.requests}
        />
      ) : (
        <DeliverByCodeModal opened={delivering} onClose={() => setDelivering(false)} />
      )}
    </ListPage>
  );
}
