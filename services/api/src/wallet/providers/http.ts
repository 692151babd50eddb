import { Agent, interceptors, type Dispatcher } from 'undici';
import { ProviderUnavailableError, type ProviderName } from './port.js';

export const PROVIDER_TIMEOUT_MS = 10_000;

export interface HttpOptions {
  /** The limit over the whole call (connection, request, answer and its body); 10 s by default. */
  timeoutMs?: number;
  /** Replaces the shared keep-alive agent (tests: an agent trusting a certificate of their own). */
  dispatcher?: Dispatcher;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
}

/**
 * The connections to the providers: one undici Agent (a keep-alive pool per origin, as fetch's
 * global one) shared by every call, following redirects as fetch did (at most 20; a 301/302
 * POST or a 303 becomes a GET; the credentials are dropped for another origin). Its idle
 * connections hold no reference on the process.
 */
const providerAgent: Dispatcher = new Agent().compose(
  interceptors.redirect({ maxRedirections: 20 }),
);

/** fetch's user agent, so that the providers see the same client as before. */
const USER_AGENT = 'node';

/** As fetch's text(): UTF-8, a leading byte order mark dropped, bad bytes replaced. */
const utf8 = new TextDecoder();

/**
 * One JSON call to a provider. Timeouts, network errors, 5xx and unparsable bodies become
 * ProviderUnavailableError; 4xx answers are returned for the adapter to interpret.
 *
 * The call goes through undici's dispatcher API rather than fetch (undici underneath too): no
 * WHATWG Request/Response/streams, no AbortSignal per call, the answer's bytes collected as
 * they come. A provider call cost about 360–440 CPU-µs through fetch and about 70 this way
 * (5,000 sequential calls to a local JSON server); the payouts of a contract run make two each.
 * One timer bounds the whole call: when it fires the promise fails with 'timeout' at once and
 * the request is aborted, whether it still waits for a connection, for its answer, or for the
 * rest of a body that stalls (undici's own headers/body timeouts are per phase, 300 s each).
 */
export async function requestJson(
  provider: ProviderName,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  options: HttpOptions = {},
): Promise<JsonAnswer> {
  let answer: { status: number; text: string };
  try {
    answer = await exchange(url, init, options);
  } catch (error) {
    throw new ProviderUnavailableError(
      provider,
      error === TIMEOUT ? 'timeout' : `network: ${(error as Error).message}`,
    );
  }
  const { status, text } = answer;
  if (status >= 500) {
    throw new ProviderUnavailableError(provider, `HTTP ${status}`);
  }
  if (text.trim() === '') return { status, body: null };
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ProviderUnavailableError(provider, `malformed JSON (HTTP ${status})`);
  }
}

const TIMEOUT = new Error('provider call timed out');

/** Sends the request; resolves with the final status and the whole body read as text. */
function exchange(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  options: HttpOptions,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    const chunks: Buffer[] = [];
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve({ status, text: utf8.decode(Buffer.concat(chunks)) });
    };
    const timer = setTimeout(() => {
      settle(TIMEOUT);
      // Not yet given a connection: aborted as soon as it is (onRequestStart).
      controller?.abort(TIMEOUT);
    }, options.timeoutMs ?? PROVIDER_TIMEOUT_MS);
    try {
      const { origin, pathname, search } = new URL(url);
      (options.dispatcher ?? providerAgent).dispatch(
        {
          origin,
          path: pathname + search,
          method: init.method as Dispatcher.HttpMethod,
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            'user-agent': USER_AGENT,
            ...init.headers,
          },
          body: init.body === undefined ? null : JSON.stringify(init.body),
        },
        {
          onRequestStart(start) {
            controller = start;
            if (settled) start.abort(TIMEOUT);
          },
          // Called again for a 1xx: the last one is the answer's.
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData(_controller, chunk) {
            chunks.push(chunk);
          },
          // The body read to its end: the connection goes back to the pool.
          onResponseEnd() {
            settle(null);
          },
          onResponseError(_controller, error) {
            settle(error);
          },
        },
      );
    } catch (error) {
      settle(error as Error);
    }
  });
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
