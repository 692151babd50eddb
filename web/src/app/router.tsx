import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type AnyRoute } from '@tanstack/react-router';
import { setUnauthorizedHandler } from '../shared/api/client.js';
import { NotFound } from '../shared/ui/NotFound.js';
import { RouteError } from '../shared/ui/RouteError.js';
import { routeTree } from '../routeTree.gen.js';

export function createAppRouter(queryClient: QueryClient) {
  const router = createRouter({
    routeTree,
    context: {
      queryClient,
      loadScreens: (routeIds) => {
        const routes: AnyRoute[] = Object.values(router.routesById);
        for (const id of routeIds) {
          const route = routes.find((r) => r.id === id);
          if (route) void router.loadRouteChunk(route)?.catch(() => undefined);
        }
      },
    },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // Every screen's load failure in French with 'Réessayer', not TanStack's English default.
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
  });
  // A 401 anywhere goes to login through the router (no full reload).
  setUnauthorizedHandler((target) => {
    queryClient.clear();
    void router.navigate({ href: target });
  });
  return router;
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
