/**
 * Query keys of the wallet; `shared/realtime` invalidates by these prefixes
 * when a push arrives.
 */
export const walletKeys = {
  all: ['wallet'] as const,
  stats: ['wallet', 'stats'] as const,
  yearly: (userId: string, year: number) => ['wallet', 'stats', userId, year] as const,
  transactions: ['transaction'] as const,
  supplies: ['supply'] as const,
  financings: ['financement'] as const,
};
