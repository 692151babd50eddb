import { Box, Button } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { useRealtime } from '../../../../shared/realtime/use-realtime.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import {
  LINK_STATUSES,
  formatPeriod,
  formatQuantity,
  industrialSeasonsQuery,
  type IndustrialSeason,
  type IndustrialSeasonsSearch,
} from '../../model/index.js';

/**
 * 'Financement de la saison' (spec §2.1, §2.2; /dashboard/industriel/saisons): the
 * industrial's seasons with its own quantity and amounts, search, status of its link
 * (invited, accepted, expired), pagination of 10, 'Voir détails'. Live: an invitation or an
 * acceptance refreshes it (`seasons.*` pushes).
 */
export function IndustrialSeasonsPage({
  search,
  onSearchChange,
}: {
  search: IndustrialSeasonsSearch;
  onSearchChange: (next: Partial<IndustrialSeasonsSearch>) => void;
}) {
  const { t } = useTranslation('seasonInvitations');
  useRealtime();
  const me = useCurrentUser();
  const list = useQuery(industrialSeasonsQuery(me?.id ?? '', search));

  const columns: Column<IndustrialSeason>[] = [
    { name: 'label', title: t('list.columns.name') },
    {
      name: 'period',
      title: t('list.columns.period'),
      transform: (s) => formatPeriod(s.from, s.to),
    },
    {
      name: 'quantity',
      title: t('list.columns.quantity'),
      transform: (s) => formatQuantity(s.quantity),
    },
    {
      name: 'productionAmount',
      title: t('list.columns.total'),
      // The header says (Fcfa): the figure alone, grouped by thousands.
      transform: (s) => formatQuantity(s.productionAmount),
    },
    {
      name: 'status',
      title: t('list.columns.status'),
      transform: (s) => (
        // The whole badge, never cut to 'En att…' by a narrow column.
        <Box miw="max-content">
          <StatusBadge status={s.status} label={t(`statuses.${s.status}`, s.status)} />
        </Box>
      ),
    },
    {
      name: 'action',
      title: t('list.columns.action'),
      transform: (s) => (
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconEye size={14} aria-hidden />}
          renderRoot={(props) => (
            <Link {...props} to="/dashboard/industriel/saison/$id" params={{ id: String(s.id) }} />
          )}
          aria-label={t('list.viewOf', { label: s.label })}
        >
          {t('list.view')}
        </Button>
      ),
    },
  ];

  return (
    <ListPage
      title={t('list.title')}
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('list.searchPlaceholder')}
      statuses={{ values: LINK_STATUSES, label: (s) => t(`statuses.${s}`) }}
      columns={columns}
      list={list}
    />
  );
}
