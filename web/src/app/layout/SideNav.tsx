import { Badge, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { inactiveCountQuery } from '../../features/identity/api/users.js';
import { WalletBalanceCard } from '../../features/wallet/components/WalletBalanceCard.js';
import { useCurrentUser } from '../../shared/auth/current-user.js';
import { ROLES } from '../../shared/auth/roles.js';
import { buildMenu } from '../../shared/navigation/menu.js';
import type { NavRoute } from '../../shared/navigation/routes.js';
import { ProfileBlock } from './ProfileBlock.js';

/** Side navigation built from the route table, filtered by the user's role. */
export function SideNav() {
  const { t } = useTranslation('nav');
  const user = useCurrentUser();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const role = user?.role?.code ?? '';
  const isSuperAdmin = role === ROLES.SUPER_ADMIN;
  const inactive = useQuery({ ...inactiveCountQuery, enabled: isSuperAdmin }).data?.count ?? 0;
  const menu = buildMenu({
    role,
    cooperative: user?.organization?.organizationType === 'COOPERATIVE',
    hasCluster: Boolean(user?.clusterId),
  });

  const item = (route: NavRoute) => (
    <NavLink
      key={route.key}
      component={Link}
      to={route.path}
      label={t(route.label)}
      active={pathname.startsWith(route.path)}
      aria-current={pathname.startsWith(route.path) ? 'page' : undefined}
      rightSection={
        route.key === 'users' && isSuperAdmin && inactive > 0 ? (
          <Badge
            color="red"
            size="sm"
            circle
            aria-label={t('inactiveCount', { count: inactive })}
            data-testid="inactive-count"
          >
            {inactive}
          </Badge>
        ) : undefined
      }
    />
  );

  return (
    <Stack gap="md" h="100%">
      {user && <ProfileBlock user={user} />}
      <WalletBalanceCard />
      <ScrollArea flex={1} component="nav" aria-label={t('menu')}>
        {menu.top.map(item)}
        {menu.groups.map(({ group, items }) => (
          <div key={group.key} role="group" aria-labelledby={`nav-group-${group.key}`}>
            <Text
              id={`nav-group-${group.key}`}
              size="xs"
              fw={700}
              tt="uppercase"
              c="dark.4"
              mt="md"
              mb={4}
              px="sm"
            >
              {t(group.label)}
            </Text>
            {items.map(item)}
          </div>
        ))}
      </ScrollArea>
    </Stack>
  );
}
