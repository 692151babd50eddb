import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../shared/api/api-error.js';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        // A 4xx will not get better by asking again.
        retry: (count, error) => count < 2 && !(isApiError(error) && error.status < 500),
      },
    },
  });
}
