import { ActionIcon, Alert, Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconPencil, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { ROLES } from '../../../shared/auth/roles.js';
import type { User } from '../../../shared/auth/user.js';
import type { Column } from '../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../shared/ui/ListPage.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { StatusBadge } from '../../../shared/ui/StatusBadge.js';
import { rolesQuery, toggleActivation, usersQuery, type UsersSearch } from '../api/users.js';
import { missingScopeOf } from '../model/user-form.js';
import { DeleteUserModal } from './DeleteUserModal.js';
import { UserFormModal } from './UserFormModal.js';
import { notify } from '../../../shared/ui/notify.js';

/**
 * 'Utilisateurs': search, role filter (super admin), pagination of 10, add/edit/delete,
 * activation (super admin and cluster manager), never on one's own row. The aggregator and the
 * SFD manage their organisation's staff. A cluster manager without a cluster (or an aggregator
 * without an organisation) is told what is missing instead of an empty list.
 */
export function UsersPage({
  search,
  onSearchChange,
}: {
  search: UsersSearch;
  onSearchChange: (next: Partial<UsersSearch>) => void;
}) {
  const { t } = useTranslation('users');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const role = me?.role?.code;
  const isSuperAdmin = role === ROLES.SUPER_ADMIN;
  const canToggle = isSuperAdmin || role === ROLES.CLUSTER_MANAGER;
  const missingKnown = me ? missingScopeOf(me) : null;
  const list = useQuery({ ...usersQuery(search), enabled: missingKnown === null });
  // The server says so too (e.g. the cluster was taken away during the session).
  const refused =
    isApiError(list.error) &&
    (list.error.reason === 'NO_CLUSTER' || list.error.reason === 'NO_ORGANIZATION')
      ? list.error.reason === 'NO_CLUSTER'
        ? 'noCluster'
        : 'noOrganization'
      : null;
  const missing = missingKnown ?? refused;
  const roles = useQuery({ ...rolesQuery, enabled: isSuperAdmin }).data ?? [];
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const toggle = useMutation({
    mutationFn: (user: User) => toggleActivation(user.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
    onError: (error) => notify('error', errorText(error)),
  });

  const name = (u: User) => `${u.firstname} ${u.lastname}`;
  const columns: Column<User>[] = [
    { name: 'lastname', title: t('columns.lastname') },
    { name: 'firstname', title: t('columns.firstname') },
    { name: 'email', title: t('columns.email') },
    { name: 'role', title: t('columns.role'), transform: (u) => u.role?.name ?? t('noRole') },
    ...(isSuperAdmin
      ? [
          {
            name: 'isActive',
            title: t('columns.accountStatus'),
            transform: (u: User) => (
              <StatusBadge
                kind={u.isActive ? 'success' : 'danger'}
                label={t(u.isActive ? 'activated' : 'deactivated')}
              />
            ),
          },
        ]
      : []),
    {
      name: 'action',
      title: t('columns.action'),
      // One's own row: no activation and no deletion (the server refuses both); its profile
      // is where one edits oneself.
      transform: (u) => {
        const own = u.id === me?.id;
        if (own)
          return (
            <Text size="sm" c="dark.4">
              {t('you')}
            </Text>
          );
        return (
          <Group gap={4} wrap="nowrap">
            {canToggle && (
              <Button
                size="compact-sm"
                variant={u.isActive ? 'default' : 'filled'}
                color={u.isActive ? 'red' : 'leaf'}
                loading={toggle.isPending && toggle.variables?.id === u.id}
                onClick={() => toggle.mutate(u)}
                aria-label={`${t(u.isActive ? 'deactivate' : 'activate')} ${name(u)}`}
              >
                {t(u.isActive ? 'deactivate' : 'activate')}
              </Button>
            )}
            <ActionIcon
              variant="subtle"
              aria-label={t('editAction', { name: name(u) })}
              onClick={() => setEditing(u)}
            >
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('deleteAction', { name: name(u) })}
              onClick={() => setDeleting(u)}
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Group>
        );
      },
    },
  ];

  const addButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
      {t('add')}
    </Button>
  );
  const filtered = Boolean(search.q || search.role);
  const empty = list.isSuccess && list.data.count === 0 && !filtered && (search.page ?? 1) === 1;

  if (missing) {
    return (
      <>
        <PageTitle>{t('title')}</PageTitle>
        <Alert
          color="leaf"
          variant="light"
          role="status"
          data-testid="users-missing-scope"
          icon={<IconAlertCircle aria-hidden />}
          title={t(`missing.${missing}.title`)}
        >
          {t(`missing.${missing}.text`)}
        </Alert>
      </>
    );
  }

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('title')}</PageTitle>
        {!empty && addButton}
      </Group>
      {empty ? (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" ta="center" data-testid="users-empty">
            <IconUsers size={48} aria-hidden color="var(--mantine-color-gray-6)" />
            <Text>{t('emptyState')}</Text>
            {addButton}
          </Stack>
        </Paper>
      ) : (
        <ListPanel
          search={search}
          onSearchChange={onSearchChange}
          searchPlaceholder={t('searchPlaceholder')}
          filters={
            isSuperAdmin && (
              <Select
                aria-label={t('roleFilter')}
                placeholder={t('allRoles')}
                clearable
                data={roles.map((r) => ({ value: r.code, label: r.name }))}
                value={search.role ?? null}
                onChange={(v) => onSearchChange({ role: v ?? undefined, page: undefined })}
              />
            )
          }
          columns={columns}
          list={list}
          caption={t('title')}
        />
      )}
      {editing && (
        <UserFormModal
          key={editing === 'new' ? 'new' : editing.id}
          user={editing}
          onClose={() => setEditing(null)}
        />
      )}
      <DeleteUserModal user={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
