declare const brand: unique symbol;

/**
 * The value of an `Idempotency-Key` header. Only `newIdempotencyKey` (through
 * `useIdempotencyKey`) and `idempotencyKeyFor` make one, and the client's `command`
 * requires one: a money command cannot be written without its key.
 */
export type IdempotencyKey = string & { readonly [brand]: 'IdempotencyKey' };

/** A fresh key: one per user action, reused when that action is retried. */
export function newIdempotencyKey(): IdempotencyKey {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID() as IdempotencyKey;
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}` as IdempotencyKey;
}

/**
 * The key of an action named by an id of its own, the same whoever sends it and however
 * often: `verify:{transactionId}` for a payment provider's transaction.
 */
export function idempotencyKeyFor(action: string, id: string): IdempotencyKey {
  return `${action}:${id}` as IdempotencyKey;
}
