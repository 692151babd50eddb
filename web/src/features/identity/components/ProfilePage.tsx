import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { toLocalPhone } from '../../../shared/format/phone.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import type { ProfileField } from '../api/profile.js';
import { EditFieldModal } from './EditFieldModal.js';
import { PasswordModal } from './PasswordModal.js';

type Editing = ProfileField | 'password' | null;

/**
 * Name, first name, e-mail, phone, payout accounts and masked password, each with a
 * 'Modifier' modal (the e-mail, phone and payout accounts ask for the current password).
 */
export function ProfilePage() {
  const { t } = useTranslation('profile');
  const user = useCurrentUser();
  const [editing, setEditing] = useState<Editing>(null);
  if (!user) return null;
  const rows: { key: Exclude<Editing, null>; label: string; value: string; initial?: string }[] = [
    { key: 'lastname', label: t('lastname'), value: user.lastname },
    { key: 'firstname', label: t('firstname'), value: user.firstname },
    { key: 'email', label: t('email'), value: user.email ?? '' },
    {
      key: 'phone',
      label: t('phone'),
      value: toLocalPhone(user.phone) || '—',
      initial: toLocalPhone(user.phone),
    },
    {
      key: 'momoAccountNumber',
      label: t('momo'),
      value: user.momoAccountNumber || '—',
      initial: user.momoAccountNumber ?? '',
    },
    {
      key: 'bankAccountNumber',
      label: t('bank'),
      value: user.bankAccountNumber || '—',
      initial: user.bankAccountNumber ?? '',
    },
    { key: 'password', label: t('password'), value: '••••••••' },
  ];
  return (
    <>
      <PageTitle>{t('title')}</PageTitle>
      <Paper withBorder radius="md" p="lg" maw={720}>
        <Stack gap="md">
          {rows.map((row) => (
            <Group
              key={row.key}
              justify="space-between"
              wrap="nowrap"
              data-testid={`profile-${row.key}`}
            >
              <div>
                <Text size="sm" c="dark.4">
                  {row.label}
                </Text>
                <Text fw={600}>{row.value}</Text>
              </div>
              <Anchor
                component="button"
                type="button"
                onClick={() => setEditing(row.key)}
                aria-label={t('editField', { field: row.label })}
              >
                {t('edit')}
              </Anchor>
            </Group>
          ))}
          <Group justify="space-between">
            <div>
              <Text size="sm" c="dark.4">
                {t('role')}
              </Text>
              <Text fw={600}>{user.role?.name ?? '—'}</Text>
            </div>
            {user.organization && (
              <div>
                <Text size="sm" c="dark.4">
                  {t('organization')}
                </Text>
                <Text fw={600}>{user.organization.denomination}</Text>
              </div>
            )}
          </Group>
        </Stack>
      </Paper>
      {editing && editing !== 'password' && (
        <EditFieldModal
          field={editing}
          label={rows.find((r) => r.key === editing)!.label}
          initial={rows.find((r) => r.key === editing)!.initial ?? user[editing] ?? ''}
          onClose={() => setEditing(null)}
        />
      )}
      <PasswordModal opened={editing === 'password'} onClose={() => setEditing(null)} />
    </>
  );
}
