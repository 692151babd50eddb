import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** After a command: the balance card, stats, chart and tables reload. */
export function useInvalidateWallet(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all(
      ['wallet', 'transaction', 'supply', 'financement'].map((key) =>
        queryClient.invalidateQueries({ queryKey: [key] }),
      ),
    );
  }, [queryClient]);
}
