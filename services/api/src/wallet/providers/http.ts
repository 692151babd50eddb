import { ProviderUnavailableError, type ProviderName } from './port.js';

export const PROVIDER_TIMEOUT_MS = 10_000;

export interface HttpOptions {
  /** Defaults to 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
}

/**
 * One JSON call to a provider. Timeouts, network errors, 5xx and unparsable bodies become
 * ProviderUnavailableError; 4xx answers are returned for the adapter to interpret.
 */
export async function requestJson(
  provider: ProviderName,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  options: HttpOptions = {},
): Promise<JsonAnswer> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  let text: string;
  try {
    response = await doFetch(url, {
      method: init.method,
      headers: { accept: 'application/json', 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? PROVIDER_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const name = (error as Error).name;
    throw new ProviderUnavailableError(
      provider,
      name === 'TimeoutError' || name === 'AbortError'
        ? 'timeout'
        : `network: ${(error as Error).message}`,
    );
  }
  if (response.status >= 500) {
    throw new ProviderUnavailableError(provider, `HTTP ${response.status}`);
  }
  if (text.trim() === '') return { status: response.status, body: null };
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ProviderUnavailableError(provider, `malformed JSON (HTTP ${response.status})`);
  }
}

/**
 * 4xx answers that say nothing about the payment itself: our credentials refused (401,
 * 403), a timeout on their side (408), too early or too many requests (425, 429). The
 * operation is retried later, never failed on them.
 */
const RETRYABLE_4XX = new Set([401, 403, 408, 425, 429]);

/** Throws ProviderUnavailableError for a 4xx answer that must be retried, not believed. */
export function rejectRetryable(provider: ProviderName, answer: JsonAnswer): JsonAnswer {
  if (RETRYABLE_4XX.has(answer.status)) {
    throw new ProviderUnavailableError(provider, `HTTP ${answer.status}`);
  }
  return answer;
}

/** Reads a whole-number F CFA amount from a provider answer (number or numeric string). */
export function parseAmount(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
