import { ApiError } from '../../../shared/api/api-error.js';

/**
 * The server's French message when it refused a money command (a 4xx: not enough money, no
 * mobile-money number or bank account on the profile, an amount over the ceiling, a key
 * reused…), or null when the failure is not a refusal (5xx, network, time-out, or a 401,
 * which already sent the user to login): the form then shows its generic text.
 */
export function refusalMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status < 400 || error.status >= 500 || error.status === 401) return null;
  return error.message.trim() ? error.message : null;
}
