import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { IconEye, IconPencil, IconPlus, IconRestore, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { DownloadButton } from '../../../../shared/ui/DownloadButton.js';
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { notify } from '../../../../shared/ui/notify.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { downloadSpreadsheet } from '../../../wallet/api/export.js';
import {
  CARRIER_STATUSES,
  carrierKeys,
  carriersDownloadPath,
  carriersQuery,
  reactivateCarrier,
  type Carrier,
  type CarriersSearch,
} from '../api/carriers.js';
import { DeactivateCarrierModal } from './DeactivateCarrierModal.js';
import { VehiclesMenu } from './VehiclesMenu.js';

/**
 * 'Transporteurs' (spec §2.2): Nom, Prénoms, Téléphone, Type de véhicule (a dropdown with the
 * count, then each vehicle), Action (view, edit, delete = deactivation); search, pagination
 * of 10, Télécharger; the deactivated ones behind the status filter, with Réactiver. The
 * aggregator reads only.
 */
export function CarriersPage({
  search,
  onSearchChange,
}: {
  search: CarriersSearch;
  onSearchChange: (next: Partial<CarriersSearch>) => void;
}) {
  const { t } = useTranslation('carriers');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const canWrite = me?.role?.code !== ROLES.INDUSTRIAL;
  const list = useQuery(carriersQuery(search));
  const [deactivating, setDeactivating] = useState<Carrier | null>(null);
  const reactivate = useMutation({
    mutationFn: (c: Carrier) => reactivateCarrier(c.id),
    onSuccess: async (c) => {
      notify('success', t('reactivated', { name: `${c.user.firstname} ${c.user.lastname}` }));
      await queryClient.invalidateQueries({ queryKey: carrierKeys.all });
    },
    onError: (error) => notify('error', errorText(error)),
  });

  const name = (c: Carrier) => `${c.user.firstname} ${c.user.lastname}`;
  const columns: Column<Carrier>[] = [
    { name: 'lastname', title: t('columns.lastname'), transform: (c) => c.user.lastname },
    {
      name: 'firstname',
      title: t('columns.firstname'),
      transform: (c) =>
        c.isActive ? (
          c.user.firstname
        ) : (
          <Group gap="xs" wrap="nowrap">
            <span>{c.user.firstname}</span>
            <StatusBadge kind="danger" label={t('deactivated')} />
          </Group>
        ),
    },
    { name: 'phone', title: t('columns.phone'), transform: (c) => toLocalPhone(c.user.phone) },
    {
      name: 'vehicles',
      title: t('columns.vehicles'),
      transform: (c) => <VehiclesMenu cars={c.cars} owner={name(c)} />,
    },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (c) => (
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            renderRoot={(props) => (
              <Link {...props} to="/transporteurs/show/$id" params={{ id: c.id }} />
            )}
            aria-label={t('view', { name: name(c) })}
          >
            <IconEye size={18} aria-hidden />
          </ActionIcon>
          {canWrite &&
            (c.isActive ? (
              <>
                <ActionIcon
                  variant="subtle"
                  renderRoot={(props) => (
                    <Link {...props} to="/transporteurs/edit/$id" params={{ id: c.id }} />
                  )}
                  aria-label={t('edit', { name: name(c) })}
                >
                  <IconPencil size={18} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('deactivateAction', { name: name(c) })}
                  onClick={() => setDeactivating(c)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </>
            ) : (
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconRestore size={14} aria-hidden />}
                loading={reactivate.isPending && reactivate.variables?.id === c.id}
                aria-label={t('reactivateAction', { name: name(c) })}
                onClick={() => reactivate.mutate(c)}
              >
                {t('reactivate')}
              </Button>
            ))}
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title={t('title')}
      action={
        canWrite && (
          <Button
            component={Link}
            to="/transporteurs/create"
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('add')}
          </Button>
        )
      }
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('searchPlaceholder')}
      statuses={{ values: CARRIER_STATUSES, label: (s) => t(`statuses.${s}`) }}
      actions={
        <DownloadButton
          disabled={!me || list.data?.count === 0}
          onDownload={async () => {
            try {
              await downloadSpreadsheet(carriersDownloadPath(me!.id), 'transporteurs.xlsx');
            } catch (error) {
              notify('error', errorText(error));
            }
          }}
        />
      }
      columns={columns}
      list={list}
    >
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
      <DeactivateCarrierModal carrier={deactivating} onClose={() => setDeactivating(null)} />
    </ListPage>
  );
}
