import { ActionIcon, Group, Paper, Title } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { GrowerStatementButton } from '../../../contracts/pdf/index.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatMoney } from '../../../../shared/format/money.js';
import type { ListSearch } from '../../../../shared/search/list-search.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../../shared/ui/ListPage.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { growerContractsQuery, type GrowerContract } from '../api/growers.js';
import { formatDecimal } from '../../../../shared/format/number.js';

/**
 * The grower's contracts (`GET grower/contracts/{id}`): searchable, paginated, with the
 * table's loading and empty texts; filled once contracts exist.
 */
export function GrowerContracts({
  growerId,
  search,
  onSearchChange,
}: {
  growerId: string;
  search: ListSearch<never>;
  onSearchChange: (next: ListSearch<never>) => void;
}) {
  const { t } = useTranslation('growers');
  const list = useQuery(growerContractsQuery(growerId, search));
  const columns: Column<GrowerContract>[] = [
    { name: 'reference', title: t('contracts.reference') },
    {
      name: 'type',
      title: t('contracts.type'),
      transform: (c) => t(`contractTypes.${c.type}`, { defaultValue: c.type }),
    },
    {
      name: 'quantity',
      title: t('contracts.quantity'),
      transform: (c) => (c.quantity == null ? '' : formatDecimal(c.quantity)),
    },
    {
      name: 'amount',
      title: t('contracts.amount'),
      transform: (c) => (c.amount == null ? '' : formatMoney(Number(c.amount))),
    },
    {
      name: 'status',
      title: t('contracts.status'),
      transform: (c) => <StatusBadge status={c.status} />,
    },
    {
      name: 'date',
      title: t('contracts.date'),
      transform: (c) => (c.createdAt ? formatDate(c.createdAt) : ''),
    },
    {
      // A delivery contract opens its page (ShowContratLivraison), where the grower's
      // cooperative confirms it.
      name: 'action',
      title: t('contracts:columns.action'),
      transform: (c) =>
        c.type === 'LIVRAISON' ? (
          <ActionIcon
            variant="subtle"
            renderRoot={(props) => (
              <Link {...props} to="/contrats/livraison/show/$id" params={{ id: c.id }} />
            )}
            aria-label={t('contracts:view', { reference: c.reference })}
          >
            <IconEye size={18} aria-hidden />
          </ActionIcon>
        ) : null,
    },
  ];
  return (
    <Paper component="section" aria-label={t('detail.contracts')}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('detail.contracts')}
        </Title>
        <GrowerStatementButton growerId={growerId} />
      </Group>
      <ListPanel
        search={search}
        onSearchChange={onSearchChange}
        searchPlaceholder={t('contracts.searchPlaceholder')}
        columns={columns}
        list={list}
        caption={t('detail.contracts')}
      />
    </Paper>
  );
}
