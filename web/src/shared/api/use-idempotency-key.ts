import { useCallback, useEffect, useRef } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { newIdempotencyKey, type IdempotencyKey } from './idempotency.js';

export interface IdempotencyKeyHandle {
  current: () => IdempotencyKey;
  renew: () => void;
}

/**
 * One idempotency key per user action: `current()` gives the same key until
 * `renew()` (called when the action succeeded, or the user changed what it sends),
 * so a retry after a lost answer cannot move money twice. With `form`, any change of
 * the form's values (amount, recipient, means…) renews the key: it is another action.
 */
export function useIdempotencyKey<T extends FieldValues>(
  form?: Pick<UseFormReturn<T>, 'watch'>,
): IdempotencyKeyHandle {
  const key = useRef<IdempotencyKey | null>(null);
  const current = useCallback(() => (key.current ??= newIdempotencyKey()), []);
  const renew = useCallback(() => {
    key.current = null;
  }, []);
  const watch = form?.watch;
  useEffect(() => (watch ? watch(() => renew()).unsubscribe : undefined), [watch, renew]);
  return { current, renew };
}
