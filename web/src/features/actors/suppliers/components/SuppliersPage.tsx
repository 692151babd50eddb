import { ActionIcon, Button, Group } from '@mantine/core';
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
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { notify } from '../../../../shared/ui/notify.js';
import {
  reactivateSupplier,
  SUPPLIER_STATUSES,
  supplierKeys,
  suppliersQuery,
  type SupplierListItem,
  type SuppliersSearch,
} from '../api/suppliers.js';
import { DeactivateSupplierModal } from './DeactivateSupplierModal.js';

/** The roles that register, edit and deactivate suppliers (the aggregator only reads). */
export const SUPPLIER_WRITERS: readonly string[] = [
  ROLES.SUPER_ADMIN,
  ROLES.ADMIN,
  ROLES.CLUSTER_MANAGER,
];

/**
 * 'Fournisseurs d'intrant' (fournisseurs-intrant, spec §2.4): Nom, Prénoms, Téléphone,
 * Action (view, edit, and the trash icon that deactivates after a confirmation); search,
 * pagination of 10; the super admin also lists the deactivated ones and reactivates them.
 */
export function SuppliersPage({
  search,
  onSearchChange,
}: {
  search: SuppliersSearch;
  onSearchChange: (next: Partial<SuppliersSearch>) => void;
}) {
  const { t } = useTranslation('suppliers');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const role = me?.role?.code ?? '';
  const isSuperAdmin = role === ROLES.SUPER_ADMIN;
  const writes = SUPPLIER_WRITERS.includes(role);
  const list = useQuery(suppliersQuery(search));
  const [deactivating, setDeactivating] = useState<{ id: string; name: string } | null>(null);
  const reactivate = useMutation({
    mutationFn: (s: SupplierListItem) => reactivateSupplier(s.id),
    onSuccess: async (answer) => {
      notify('success', answer.message);
      await queryClient.invalidateQueries({ queryKey: supplierKeys.all });
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const name = (s: SupplierListItem) => `${s.user.firstname} ${s.user.lastname}`;

  const columns: Column<SupplierListItem>[] = [
    { name: 'lastname', title: t('columns.lastname'), transform: (s) => s.user.lastname },
    { name: 'firstname', title: t('columns.firstname'), transform: (s) => s.user.firstname },
    { name: 'phone', title: t('columns.phone'), transform: (s) => toLocalPhone(s.user.phone) },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (s) => (
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            renderRoot={(props) => (
              <Link {...props} to="/fournisseurs-intrant/show/$id" params={{ id: s.id }} />
            )}
            aria-label={t('view', { name: name(s) })}
          >
            <IconEye size={18} aria-hidden />
          </ActionIcon>
          {writes && s.isActive && (
            <>
              <ActionIcon
                variant="subtle"
                renderRoot={(props) => (
                  <Link {...props} to="/fournisseurs-intrant/update/$id" params={{ id: s.id }} />
                )}
                aria-label={t('edit', { name: name(s) })}
              >
                <IconPencil size={18} aria-hidden />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('deactivate', { name: name(s) })}
                onClick={() => setDeactivating({ id: s.id, name: name(s) })}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </>
          )}
          {isSuperAdmin && !s.isActive && (
            <ActionIcon
              variant="subtle"
              color="leaf"
              aria-label={t('reactivate', { name: name(s) })}
              loading={reactivate.isPending && reactivate.variables?.id === s.id}
              onClick={() => reactivate.mutate(s)}
            >
              <IconRestore size={18} aria-hidden />
            </ActionIcon>
          )}
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title={t('title')}
      action={
        writes && (
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            renderRoot={(props) => <Link {...props} to="/fournisseurs-intrant/create" />}
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
          ? { values: SUPPLIER_STATUSES, label: (status) => t(`statuses.${status}`) }
          : undefined
      }
      columns={columns}
      list={list}
    >
      <DeactivateSupplierModal supplier={deactivating} onClose={() => setDeactivating(null)} />
    </ListPage>
  );
}
