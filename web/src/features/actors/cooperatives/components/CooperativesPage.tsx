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
import { downloadSpreadsheet } from '../../../wallet/api/export.js';
import {
  COOPERATIVE_STATUSES,
  cooperativeKeys,
  cooperativesDownloadPath,
  cooperativesQuery,
  reactivateCooperative,
  type Cooperative,
  type CooperativesSearch,
} from '../api/cooperatives.js';
import { DeactivateCooperativeModal } from './DeactivateCooperativeModal.js';

/**
 * 'Coopérative de Producteurs' (organisations-paysannes, spec §2.3): Dénomination, Nom du
 * représentant, Prénoms, Téléphone; search, pagination of 10, download (.xlsx), add, view,
 * edit, deactivate; the super admin also lists the deactivated ones and reactivates them.
 */
export function CooperativesPage({
  search,
  onSearchChange,
}: {
  search: CooperativesSearch;
  onSearchChange: (next: Partial<CooperativesSearch>) => void;
}) {
  const { t } = useTranslation('cooperatives');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const isSuperAdmin = me?.role?.code === ROLES.SUPER_ADMIN;
  // The aggregator reads its cluster's cooperatives; it registers and edits none.
  const canWrite = me?.role?.code !== ROLES.INDUSTRIAL;
  const list = useQuery(cooperativesQuery(search));
  const [deactivating, setDeactivating] = useState<Cooperative | null>(null);
  const reactivate = useMutation({
    mutationFn: (c: Cooperative) => reactivateCooperative(c.id),
    onSuccess: async (c) => {
      notify('success', t('reactivated', { label: c.label }));
      await queryClient.invalidateQueries({ queryKey: cooperativeKeys.all });
    },
    onError: (error) => notify('error', errorText(error)),
  });

  const columns: Column<Cooperative>[] = [
    { name: 'label', title: t('columns.label') },
    { name: 'lastname', title: t('columns.lastname'), transform: (c) => c.user.lastname },
    { name: 'firstname', title: t('columns.firstname'), transform: (c) => c.user.firstname },
    { name: 'phone', title: t('columns.phone'), transform: (c) => toLocalPhone(c.user.phone) },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (c) => (
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            renderRoot={(props) => (
              <Link {...props} to="/organisations-paysannes/show/$id" params={{ id: c.id }} />
            )}
            aria-label={t('view', { label: c.label })}
          >
            <IconEye size={18} aria-hidden />
          </ActionIcon>
          {!canWrite ? null : c.isActive ? (
            <>
              <ActionIcon
                variant="subtle"
                renderRoot={(props) => (
                  <Link {...props} to="/organisations-paysannes/edit/$id" params={{ id: c.id }} />
                )}
                aria-label={t('edit', { label: c.label })}
              >
                <IconPencil size={18} aria-hidden />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('deactivateAction', { label: c.label })}
                onClick={() => setDeactivating(c)}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </>
          ) : (
            isSuperAdmin && (
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconRestore size={14} aria-hidden />}
                loading={reactivate.isPending && reactivate.variables?.id === c.id}
                aria-label={t('reactivateAction', { label: c.label })}
                onClick={() => reactivate.mutate(c)}
              >
                {t('reactivate')}
              </Button>
            )
          )}
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
            to="/organisations-paysannes/create"
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('add')}
          </Button>
        )
      }
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('searchPlaceholder')}
      statuses={
        isSuperAdmin
          ? { values: COOPERATIVE_STATUSES, label: (s) => t(`statuses.${s}`) }
          : undefined
      }
      actions={
        <DownloadButton
          disabled={!me || list.data?.count === 0}
          onDownload={async () => {
            try {
              await downloadSpreadsheet(cooperativesDownloadPath(me!.id), 'cooperatives.xlsx');
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
      <DeactivateCooperativeModal
        cooperative={deactivating}
        onClose={() => setDeactivating(null)}
      />
    </ListPage>
  );
}
