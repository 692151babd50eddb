export interface BackoffOptions {
  /** The first retry's delay before jitter. */
  baseMs: number;
  /** The longest delay before jitter. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 5_000, maxMs: 30 * 60_000 };

/**
 * The delay before attempt `attempts + 1`: doubling from `baseMs` up to `maxMs`, with "equal
 * jitter" (half the delay fixed, half random), so messages held up by one outage do not all
 * come back at the same instant when the gateway does.
 */
export function backoffDelay(
  attempts: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const delay = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return delay / 2 + random() * (delay / 2);
}
