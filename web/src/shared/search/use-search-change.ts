import { useLocation, useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';

/**
 * A list screen's search updater: merges `next` into the URL's search params of the screen
 * being shown, replacing the history entry. The search box reports after a pause, so a
 * report may arrive once the user has left for another screen (a row's detail): it is then
 * dropped, instead of bringing them back to the list.
 */
export function useSearchChange<S extends object>(): (next: Partial<S>) => void {
  const navigate = useNavigate();
  const router = useRouter();
  const pathname = useLocation({ select: (location) => location.pathname });
  return useCallback(
    (next: Partial<S>) => {
      if (router.state.location.pathname !== pathname) return;
      void navigate({
        to: '.',
        search: (prev: object) => ({ ...prev, ...next }),
        replace: true,
      } as Parameters<typeof navigate>[0]);
    },
    [navigate, router, pathname],
  );
}
