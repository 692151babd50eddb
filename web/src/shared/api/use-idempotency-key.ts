import { useCallback, useRef } from 'react';
import { newIdempotencyKey, type IdempotencyKey } from './idempotency.js';

/**
 * One idempotency key per user action: `current()` gives the same key until
 * `renew()` (called when the action succeeded, or the user changed what it sends),
 * so a retry after a lost answer cannot move money twice.
 */
export function useIdempotencyKey(): { current: () => IdempotencyKey; renew: () => void } {
  const key = useRef<IdempotencyKey | null>(null);
  const current = useCallback(() => (key.current ??= newIdempotencyKey()), []);
  const renew = useCallback(() => {
    key.current = null;
  }, []);
  return { current, renew };
}
