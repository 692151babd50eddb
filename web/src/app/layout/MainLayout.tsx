import { AppShell, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, useMatches, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { InvitationBell } from '../../features/seasons/industrial/index.js';
import { useRealtime } from '../../shared/realtime/use-realtime.js';
import { useAfterPaint } from '../../shared/ui/use-after-paint.js';
import { SideNav } from './SideNav.js';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** A full-screen form without the navigation bar (spec: the actors' create/edit screens). */
    bare?: boolean;
  }
}

/** Main layout: side navigation; on mobile a header with a menu toggle. */
export function MainLayout() {
  const { t } = useTranslation('nav');
  const [opened, { toggle, close }] = useDisclosure();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const bare = useMatches({ select: (matches) => matches.some((m) => m.staticData?.bare) });
  useEffect(close, [pathname, close]);
  const afterPaint = useAfterPaint();
  if (bare) {
    return (
      <AppShell padding="lg" styles={{ main: { background: 'var(--mantine-color-gray-0)' } }}>
        <AppShell.Main>
          <Outlet />
        </AppShell.Main>
      </AppShell>
    );
  }
  return (
    <AppShell
      header={{ height: { base: 56, sm: 0 } }}
      navbar={{ width: 280, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
      styles={{ header: {}, main: { background: 'var(--mantine-color-gray-0)' } }}
    >
      <AppShell.Header hiddenFrom="sm">
        <Group h="100%" px="md">
          {/* The lines of size sm in a 44 px box: a thumb's target (sm alone is 28 px). */}
          <Burger
            opened={opened}
            onClick={toggle}
            size="sm"
            w={44}
            h={44}
            p={13}
            aria-label={t('openMenu')}
            aria-expanded={opened}
          />
          <Text fw={800} c="leaf.9">
            {t('common:appName')}
          </Text>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="md" aria-label={t('menu')}>
        {/* Its dozens of links and menus are rendered after the screen's first frame, not
            before it (on a phone it is off-screen until the burger opens it). */}
        {(opened || afterPaint) && <SideNav />}
      </AppShell.Navbar>
      <AppShell.Main>
        <LiveUpdates />
        {/* The industrial's season invitations (renders nothing for other roles). */}
        <InvitationBell />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The signed-in area's socket, opened as the layout mounts: with the side navigation (whose
 * balance card also uses it) rendered after the first frame, a push sent while the screen's
 * first reads were answered would otherwise find no socket subscribed and be lost.
 */
function LiveUpdates(): null {
  useRealtime();
  return null;
}
