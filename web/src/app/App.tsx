import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { decodeToken, getToken } from '../shared/auth/session.js';
import { AppBanners } from './AppBanners.js';
import { keepReads, restoreKeptReads } from './kept-reads.js';
import { createQueryClient } from './query-client.js';
import { createAppRouter } from './router.js';
import { cssVariablesResolver, theme } from './theme.js';

/** The subject of this browser's token, while it is valid. */
const signedInUser = () => {
  const token = getToken();
  return token ? decodeToken(token)?.sub : undefined;
};

/** Runs `fn` once the page is idle (a phone's Safari has no requestIdleCallback: a short wait). */
function whenIdle(fn: () => void): () => void {
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(fn, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 500);
  return () => clearTimeout(id);
}

/** Whether the first screen the router opened has been shown and the page was idle since. */
function useAfterFirstScreen(router: AnyRouter): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    let cancelIdle = () => {};
    const shown = () => {
      unsubscribe();
      cancelIdle = whenIdle(() => setAfter(true));
    };
    const unsubscribe = router.subscribe('onResolved', shown);
    if (router.state.status === 'idle' && router.state.resolvedLocation) shown();
    return () => {
      unsubscribe();
      cancelIdle();
    };
  }, [router]);
  return after;
}

/** Providers: Mantine (theme, dates, modals, notifications), TanStack Query and Router. */
export function App() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    restoreKeptReads(client, signedInUser());
    return client;
  });
  useEffect(() => keepReads(queryClient, signedInUser), [queryClient]);
  const [router] = useState(() => createAppRouter(queryClient));
  const afterFirstScreen = useAfterFirstScreen(router);
  const { i18n } = useTranslation();
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      cssVariablesResolver={cssVariablesResolver}
    >
      <DatesProvider settings={{ locale: i18n.language, firstDayOfWeek: 1 }}>
        <QueryClientProvider client={queryClient}>
          <ModalsProvider>
            <Notifications position="top-right" />
            <RouterProvider router={router} />
            <AppBanners watchUpdates={afterFirstScreen} />
          </ModalsProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  );
}
