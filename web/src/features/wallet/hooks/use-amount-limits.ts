import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { formatNumber } from '../../../shared/format/money.js';
import { walletLimitsQuery, walletStatsQuery } from '../api/stats.js';
import type { AmountLimits } from '../model/amount.js';
import type { LimitsOf } from '../model/forms.js';

/**
 * What an amount typed in a money form may not exceed: the server's ceiling, and for money
 * leaving the wallet (`spends`) its available balance, as loaded and kept live by pushes.
 * `limitsOf` is the getter the form's schema reads; `version` changes with them (the form then
 * checks the amount again); `values(amount)` fills the messages' `{max}` and `{missing}`.
 */
export function useAmountLimits(spends: boolean) {
  const ceilings = useQuery(walletLimitsQuery).data;
  const stats = useQuery({ ...walletStatsQuery, enabled: spends }).data;
  const limits: AmountLimits = {
    ...(ceilings ? { max: ceilings.maxCommandAmount } : {}),
    ...(spends && stats ? { available: stats.availableBalance } : {}),
  };
  const current = useRef(limits);
  useEffect(() => {
    current.current = limits;
  });
  const [limitsOf] = useState<LimitsOf>(() => () => current.current);
  const { max, available } = limits;
  return {
    limitsOf,
    version: `${max ?? ''}/${available ?? ''}`,
    values: (amount: number | null) => ({
      max: formatNumber(max ?? 0),
      missing: formatNumber(Math.max(0, (amount ?? 0) - (available ?? 0))),
    }),
  };
}
