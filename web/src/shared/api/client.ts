import { clearSession, getToken } from '../auth/session.js';
import { ApiError, NetworkError, readableMessage } from './api-error.js';
import type { IdempotencyKey } from './idempotency.js';
import { loginRedirectFor } from './unauthorized.js';

export const API_ROOT = '/api';
export const REQUEST_TIMEOUT_MS = 10_000;

type Query = Record<string, string | number | undefined | null>;
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  query?: Query;
  /** The `Accept` header: JSON unless a download asks for its file type. */
  accept?: string;
  /** Do not send the user to login on a 401 (the login form itself). */
  skipAuthRedirect?: boolean;
}

let onUnauthorized: (target: string) => void = (target) => window.location.assign(target);

/** The router installs a client-side navigation for 401 redirects. */
export function setUnauthorizedHandler(handler: (target: string) => void): void {
  onUnauthorized = handler;
}

/**
 * `/api/{path}?{query}`; addresses the API itself answered (`/api/…`, such as an export's
 * status and download links) are used as they are.
 */
export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  const base = path.startsWith(`${API_ROOT}/`)
    ? path
    : `${API_ROOT}${path.startsWith('/') ? path : `/${path}`}`;
  return `${base}${qs ? `${base.includes('?') ? '&' : '?'}${qs}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The one HTTP call of the web app: bearer token, 10 s time-out (until the answer's headers),
 * `Idempotency-Key` when given. A 401 clears the session and goes to login (except from the
 * login, root and invitation pages); any other failure throws an `ApiError` with the server's
 * status, French `message`, `reason` and `fields`, or a `NetworkError`.
 */
async function send(
  path: string,
  options: RequestOptions & { idempotencyKey?: IdempotencyKey },
): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
    });
  } catch {
    throw new NetworkError(controller.signal.aborted);
  } finally {
    clearTimeout(timer);
  }
  if (response.ok) return response;
  const payload = await readBody(response).catch(() => undefined);
  const body = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
  if (response.status === 401 && !options.skipAuthRedirect) {
    const target = loginRedirectFor(window.location.pathname, window.location.search);
    if (target) {
      clearSession();
      onUnauthorized(target);
    }
  }
  const { statusCode: _s, error: _e, message, reason, fields, ...data } = body;
  const fieldMessages =
    fields && typeof fields === 'object' ? (fields as Record<string, string>) : undefined;
  throw new ApiError(
    response.status,
    readableMessage(typeof message === 'string' ? message : response.statusText, fieldMessages),
    typeof reason === 'string' ? reason : undefined,
    fieldMessages,
    data,
  );
}

/** JSON call to the API (reads, and the commands that move no money). */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await readBody(await send(path, options))) as T;
}

/** The raw answer of a successful call: downloads read its status, type and body. */
export function apiResponse(path: string, options: RequestOptions = {}): Promise<Response> {
  return send(path, options);
}

/**
 * A money command (transfer, withdrawal, supply, its verification, bank validation,
 * financing): the same call with its `Idempotency-Key`, which it cannot be sent without.
 * Keys come from `useIdempotencyKey` (one per user action, the same on a retry) or
 * `idempotencyKeyFor`.
 */
export async function command<T>(
  path: string,
  idempotencyKey: IdempotencyKey,
  options: { body?: unknown; method?: 'POST' | 'PUT' | 'GET' } = {},
): Promise<T> {
  if (!idempotencyKey) throw new Error(`${path}: a money command needs an idempotency key`);
  const response = await send(path, {
    method: options.method ?? 'POST',
    body: options.body,
    idempotencyKey,
  });
  return (await readBody(response)) as T;
}
