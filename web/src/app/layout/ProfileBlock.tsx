import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROLES } from '../../shared/auth/roles.js';
import { clearSession } from '../../shared/auth/session.js';
import type { User } from '../../shared/auth/user.js';
import { LanguageMenuItems } from './LanguageSwitch.js';

/**
 * The user's name; for aggregators and the super admin the organisation name
 * and type, otherwise the role's label in the interface's language. Menu: profile, language, logout.
 */
export function ProfileBlock({ user }: { user: User }) {
  const { t } = useTranslation('nav');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const code = user.role?.code;
  const showOrg = (code === ROLES.INDUSTRIAL || code === ROLES.SUPER_ADMIN) && user.organization;
  const subtitle = showOrg
    ? `${user.organization!.denomination} · ${t(`organizationTypes.${user.organization!.organizationType}`, { defaultValue: user.organization!.organizationType })}`
    : code
      ? // The role's name is the API's (French) data: the label is the interface's language.
        t(`common:roles.${code}`, { defaultValue: user.role?.name ?? code })
      : '';
  const logout = () => {
    clearSession();
    queryClient.clear();
    void navigate({ to: '/auth/login' });
  };
  return (
    <Menu position="bottom-start" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton data-testid="profile-block" p="xs" style={{ borderRadius: 8 }}>
          <Group gap="sm" wrap="nowrap">
            <Avatar color="leaf" radius="xl" aria-hidden>
              {(user.firstname[0] ?? '') + (user.lastname[0] ?? '')}
            </Avatar>
            <div style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" fw={600} truncate>
                {user.firstname} {user.lastname}
              </Text>
              <Text size="xs" c="dark.4" truncate>
                {subtitle}
              </Text>
            </div>
            <IconChevronDown size={16} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          leftSection={<IconUser size={16} />}
          onClick={() => void navigate({ to: '/profile' })}
        >
          {t('viewProfile')}
        </Menu.Item>
        <LanguageMenuItems userId={user.id} />
        <Menu.Divider />
        <Menu.Item color="red.8" leftSection={<IconLogout size={16} />} onClick={logout}>
          {t('logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
