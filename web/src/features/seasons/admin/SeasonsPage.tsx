import { ActionIcon, Anchor, Button, Group, Text } from '@mantine/core';
import { IconArchive, IconEye, IconPencil, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { ROLES } from '../../../shared/auth/roles.js';
import { formatNumber } from '../../../shared/format/money.js';
import type { Column } from '../../../shared/ui/DataTable.js';
import { ListPage } from '../../../shared/ui/ListPage.js';
import { StatusBadge } from '../../../shared/ui/StatusBadge.js';
import {
  formatPeriod,
  formatQuantity,
  SEASON_STATUSES,
  seasonsQuery,
  type SeasonsSearch,
  type SeasonSummary,
} from '../model/index.js';
import { ArchiveSeasonModal } from './ArchiveSeasonModal.js';
import { SeasonFormModal } from './SeasonFormModal.js';
import { SeasonShowModal } from './SeasonShowModal.js';
import { SeasonStatusBadge } from './SeasonStatusBadge.js';

type Target = { season: SeasonSummary; action: 'show' | 'edit' | 'archive' };

/**
 * 'Saisons' (spec §2.1, §6): search, status filter ('Nouveau', 'Accepté', 'Rejetée'),
 * pagination of 10; the super admin also adds (the wizard), edits (the small form), archives
 * (confirmed) and views; the cluster manager views. The `seasons.*` pushes refresh the list.
 */
export function SeasonsPage({
  search,
  onSearchChange,
}: {
  search: SeasonsSearch;
  onSearchChange: (next: Partial<SeasonsSearch>) => void;
}) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const isSuperAdmin = me?.role?.code === ROLES.SUPER_ADMIN;
  const list = useQuery(seasonsQuery(search));
  // The `seasons.*` pushes (an acceptance, an expiry, the read side catching up) refresh it.
  useRealtime();
  const [target, setTarget] = useState<Target | null>(null);

  const columns: Column<SeasonSummary>[] = [
    {
      name: 'label',
      title: t('columns.name'),
      transform: (s) =>
        s.isActive ? (
          <Group gap="xs" wrap="nowrap">
            <span>{s.label}</span>
            <StatusBadge kind="success" label={t('active')} />
          </Group>
        ) : (
          s.label
        ),
    },
    { name: 'period', title: t('columns.period'), transform: (s) => formatPeriod(s.from, s.to) },
    {
      name: 'quantity',
      title: t('columns.quantity'),
      transform: (s) => formatQuantity(s.quantity),
    },
    {
      name: 'productionAmount',
      title: t('columns.totalAmount'),
      transform: (s) => formatNumber(s.productionAmount),
    },
    {
      name: 'status',
      title: t('columns.status'),
      transform: (s) => <SeasonStatusBadge status={s.status} />,
    },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (s) => (
        <Group gap={4} wrap="nowrap">
          <Anchor
            renderRoot={(props) => (
              <Link {...props} to="/saisons/show/$id" params={{ id: String(s.id) }} />
            )}
            size="sm"
            aria-label={t('viewDetailsOf', { label: s.label })}
          >
            {t('viewDetails')}
          </Anchor>
          <ActionIcon
            variant="subtle"
            aria-label={t('show', { label: s.label })}
            onClick={() => setTarget({ season: s, action: 'show' })}
          >
            <IconEye size={18} aria-hidden />
          </ActionIcon>
          {isSuperAdmin && (
            <>
              <ActionIcon
                variant="subtle"
                aria-label={t('edit', { label: s.label })}
                onClick={() => setTarget({ season: s, action: 'edit' })}
              >
                <IconPencil size={18} aria-hidden />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('archive', { label: s.label })}
                onClick={() => setTarget({ season: s, action: 'archive' })}
              >
                <IconArchive size={18} aria-hidden />
              </ActionIcon>
            </>
          )}
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title={t('title')}
      action={
        isSuperAdmin && (
          <Button
            component={Link}
            to="/saisons/create"
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('add')}
          </Button>
        )
      }
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('searchPlaceholder')}
      statuses={{ values: SEASON_STATUSES, label: (s) => t(`statuses.${s}`) }}
      columns={columns}
      list={list}
    >
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
      <SeasonShowModal
        season={target?.action === 'show' ? target.season : null}
        onClose={() => setTarget(null)}
      />
      {target?.action === 'edit' && (
        <SeasonFormModal
          key={target.season.id}
          season={target.season}
          onClose={() => setTarget(null)}
        />
      )}
      <ArchiveSeasonModal
        season={target?.action === 'archive' ? target.season : null}
        onClose={() => setTarget(null)}
      />
    </ListPage>
  );
}
