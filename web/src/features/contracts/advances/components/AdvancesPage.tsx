import { ActionIcon, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatNumber } from '../../../../shared/format/money.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { AggregatorFilter } from '../../delivery/components/AggregatorFilter.js';
import { advancesQuery, type AdvanceKind, type AdvanceRow } from '../api/advances.js';
import { ADVANCE_FILTERS, type AdvanceFilter, type AdvancesSearch } from '../model/search.js';

/**
 * One advance family as a list (contratsAvancesAnanas, the input advances, the social
 * financings): the creditor's advances to growers — reference, grower, amount, recovered,
 * still owed, date, status; searchable (reference, grower), filter still owed / repaid,
 * pages of 10; a row opens the contracts that recovered it.
 */
export function AdvancesPage({
  kind,
  search,
  onSearchChange,
}: {
  kind: AdvanceKind;
  search: AdvancesSearch;
  onSearchChange: (next: Partial<AdvancesSearch>) => void;
}) {
  const { t } = useTranslation('contractBatches');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const role = me?.role?.code;
  // The super admin and an admin read an aggregator's advances (the SFD's are its own).
  const seesAll =
    (role === ROLES.SUPER_ADMIN || role === ROLES.ADMIN) && kind !== 'FINANCEMENT_SOCIAL';
  const creditor = seesAll ? search.aggregator : me?.id;
  const list = useQuery({
    ...advancesQuery(creditor ?? '', kind, search),
    enabled: Boolean(creditor),
  });
  const columns: Column<AdvanceRow>[] = [
    { name: 'reference', title: t('advances.columns.reference') },
    {
      name: 'grower',
      title: t('advances.columns.grower'),
      transform: (r) => `${r.rightSide.lastname} ${r.rightSide.firstname} (${r.growerReference})`,
    },
    {
      name: 'amount',
      title: t('advances.columns.amount'),
      transform: (r) => formatNumber(r.meta.amount),
    },
    {
      name: 'recovered',
      title: t('advances.columns.recovered'),
      transform: (r) => formatNumber(r.meta.recovered),
    },
    {
      name: 'remaining',
      title: t('advances.columns.remaining'),
      transform: (r) => formatNumber(r.meta.remaining),
    },
    {
      name: 'createdAt',
      title: t('advances.columns.createdAt'),
      transform: (r) => formatDate(r.createdAt),
    },
    {
      name: 'status',
      title: t('advances.columns.status'),
      transform: (r) => (
        <StatusBadge
          kind={r.status === 'REPAID' ? 'success' : 'warning'}
          label={t(`advances.statuses.${r.status}`)}
        />
      ),
    },
    {
      name: 'action',
      title: t('advances.columns.action'),
      transform: (r) => (
        <ActionIcon
          variant="subtle"
          renderRoot={(props) =>
            kind === 'AVANCE_SUR_ANANAS' ? (
              <Link {...props} to="/contrats/avance-ananas/$id" params={{ id: r.id }} />
            ) : (
              <Link {...props} to="/contrats/avances/$id" params={{ id: r.id }} />
            )
          }
          aria-label={t('advances.view', { reference: r.reference })}
        >
          <IconEye size={18} aria-hidden />
        </ActionIcon>
      ),
    },
  ];
  return (
    <ListPage<AdvanceRow, AdvanceFilter>
      title={t(`advances.titles.${kind}`)}
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('advances.search')}
      statuses={{ values: ADVANCE_FILTERS, label: (f) => t(`advances.filters.${f}`) }}
      filters={
        seesAll && (
          <AggregatorFilter
            value={search.aggregator}
            onChange={(aggregator) => onSearchChange({ aggregator, page: undefined })}
          />
        )
      }
      columns={columns}
      list={list}
      header={
        seesAll && !search.aggregator ? (
          <Text c="dimmed" mb="sm">
            {t('contracts:pickAggregatorList')}
          </Text>
        ) : null
      }
    >
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
    </ListPage>
  );
}
