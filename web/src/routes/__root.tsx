import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';

export interface RouterContext {
  queryClient: QueryClient;
  /** Starts downloading the code of these routes' screens (idempotent). */
  loadScreens: (routeIds: readonly string[]) => void;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
});
