import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useElementSize, useNetwork } from '@mantine/hooks';
import { IconCloudOff, IconRefresh } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegisterSW } from 'virtual:pwa-register/react';

/**
 * The app's two banners, at the bottom of every screen: no network (the service worker opened
 * the app from its cache; what is shown may be old, the queries refetch when the network is
 * back), and a new version ready. A new version waits for the user's 'Mettre à jour', which
 * reloads every open page on it at once: a page never runs half of one version and half of
 * the next (vite.config.ts, registerType 'prompt').
 *
 * The service worker is registered (and a new version looked for) from `watchUpdates` on: the
 * app sets it once the first screen is shown and the page is idle, so registering it (~0.1 s of
 * a phone's CPU) never delays that screen.
 */
export function AppBanners({ watchUpdates }: { watchUpdates: boolean }) {
  return watchUpdates ? <BannersWithUpdates /> : <Banners update={null} />;
}

function BannersWithUpdates() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  return (
    <Banners
      update={
        needRefresh
          ? { later: () => setNeedRefresh(false), apply: () => void updateServiceWorker(true) }
          : null
      }
    />
  );
}

/** A new version waiting: 'Plus tard' hides the banner, 'Mettre à jour' reloads on it. */
interface Update {
  later: () => void;
  apply: () => void;
}

function Banners({ update }: { update: Update | null }) {
  const { t } = useTranslation('common');
  const { online } = useNetwork();
  const shown = !online || update !== null;
  // The page ends above the banners, so they never cover its last button.
  const { ref, height } = useElementSize();
  useEffect(() => {
    if (!shown) return;
    const before = document.body.style.paddingBottom;
    document.body.style.paddingBottom = `${Math.ceil(height) + 20}px`;
    return () => {
      document.body.style.paddingBottom = before;
    };
  }, [shown, height]);
  if (!shown) return null;
  return (
    <Stack
      ref={ref}
      gap="xs"
      pos="fixed"
      bottom={0}
      left={0}
      right={0}
      p="xs"
      style={{ zIndex: 400, pointerEvents: 'none' }}
    >
      {!online && (
        <Paper
          role="status"
          data-testid="offline-banner"
          p="sm"
          radius="md"
          shadow="md"
          bg="dark.7"
          c="white"
          style={{ pointerEvents: 'auto' }}
        >
          <Group gap="sm" wrap="nowrap">
            <IconCloudOff size={20} aria-hidden style={{ flexShrink: 0 }} />
            <Text size="sm">{t('offline')}</Text>
          </Group>
        </Paper>
      )}
      {update && (
        <Paper
          role="status"
          data-testid="update-banner"
          p="sm"
          radius="md"
          shadow="md"
          withBorder
          style={{ pointerEvents: 'auto' }}
        >
          <Group gap="sm" justify="space-between">
            <Group gap="sm" wrap="nowrap">
              <IconRefresh size={20} aria-hidden style={{ flexShrink: 0 }} />
              <Text size="sm">{t('newVersion')}</Text>
            </Group>
            <Group gap="xs" ml="auto">
              <Button variant="default" size="xs" onClick={update.later}>
                {t('later')}
              </Button>
              <Button size="xs" onClick={update.apply}>
                {t('update')}
              </Button>
            </Group>
          </Group>
        </Paper>
      )}
    </Stack>
  );
}
