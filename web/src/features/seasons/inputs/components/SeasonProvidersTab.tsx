import { ActionIcon, Alert, Menu, Stack } from '@mantine/core';
import { IconBan, IconDots, IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { formatMoney, formatNumber } from '../../../../shared/format/money.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import type { ListSearch } from '../../../../shared/search/list-search.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../../shared/ui/ListPage.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { seasonProvidersQuery, type SeasonProviderRow } from '../api/inputs.js';
import { AddProviderForm } from './AddProviderForm.js';
import { BanProviderModal } from './BanProviderModal.js';

const nameOf = (r: SeasonProviderRow) => `${r.provider.firstname} ${r.provider.lastname}`;

/**
 * The industrial's season tab "Fournisseur d'intrants" (spec §2.2, §2.5, §2.6): until the
 * season is CONFIRMED only the notice; then the add form and the providers' list (Nom,
 * Téléphone, Type d'engrais, Engrais, Quantité (kg), Montant, Status 'Accepté', Action with
 * 'Voir le profil' and the ban).
 */
export function SeasonProvidersTab({
  seasonId,
  linkId,
  linkStatus,
}: {
  seasonId: number;
  linkId: number;
  linkStatus: string;
}) {
  const { t } = useTranslation('seasonInputs');
  const me = useCurrentUser();
  const [search, setSearch] = useState<ListSearch>({});
  const confirmed = linkStatus === 'CONFIRMED';
  const list = useQuery({ ...seasonProvidersQuery(linkId, search), enabled: confirmed });
  const [banning, setBanning] = useState<{ id: number; name: string } | null>(null);

  if (!confirmed) {
    return (
      <Alert color="yellow" role="status">
        {t('providers.notConfirmed')}
      </Alert>
    );
  }

  const columns: Column<SeasonProviderRow>[] = [
    { name: 'name', title: t('providers.columns.name'), transform: nameOf },
    {
      name: 'phone',
      title: t('providers.columns.phone'),
      transform: (r) => toLocalPhone(r.provider.phone),
    },
    { name: 'type', title: t('providers.columns.type'), transform: (r) => r.fertilizer.type.label },
    {
      name: 'fertilizer',
      title: t('providers.columns.fertilizer'),
      transform: (r) => r.fertilizer.label,
    },
    {
      name: 'quantity',
      title: t('providers.columns.quantity'),
      transform: (r) => formatNumber(r.quantity),
    },
    {
      name: 'amount',
      title: t('providers.columns.amount'),
      transform: (r) => formatMoney(r.amount),
    },
    {
      name: 'status',
      title: t('providers.columns.status'),
      transform: () => <StatusBadge kind="success" label={t('providers.accepted')} />,
    },
    {
      name: 'action',
      title: t('providers.columns.action'),
      transform: (r) => (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={t('providers.actions', { name: nameOf(r) })}>
              <IconDots size={18} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {r.supplierId && (
              <Menu.Item
                leftSection={<IconEye size={16} aria-hidden />}
                renderRoot={(props) => (
                  <Link
                    {...props}
                    to="/fournisseurs-intrant/show/$id"
                    params={{ id: r.supplierId! }}
                  />
                )}
              >
                {t('providers.viewProfile')}
              </Menu.Item>
            )}
            <Menu.Item
              color="red.8"
              leftSection={<IconBan size={16} aria-hidden />}
              onClick={() => setBanning({ id: r.id, name: nameOf(r) })}
            >
              {t('providers.ban')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ),
    },
  ];

  return (
    <Stack gap="md">
      {me && <AddProviderForm seasonId={seasonId} linkId={linkId} industrialId={me.id} />}
      <ListPanel
        search={search}
        onSearchChange={(next) => setSearch((prev) => ({ ...prev, ...next }))}
        searchPlaceholder={t('providers.searchPlaceholder')}
        columns={columns}
        list={list}
        caption={t('providers.listTitle')}
      />
      <BanProviderModal provider={banning} onClose={() => setBanning(null)} />
    </Stack>
  );
}
