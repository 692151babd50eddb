import { buildUrl } from '../../../shared/api/client.js';
import { ApiError, NetworkError } from '../../../shared/api/api-error.js';
import { loginRedirectFor } from '../../../shared/api/unauthorized.js';
import { clearSession, getToken } from '../../../shared/auth/session.js';

const TIMEOUT_MS = 10_000;

/** A fresh idempotency key: one per user action, reused when that action is retried. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export async function send(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  init: { body?: unknown; idempotencyKey?: string; accept?: string },
): Promise<Response> {
  const headers: Record<string, string> = { accept: init.accept ?? 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let response: Response;
  try {
    // `/api/…` addresses the API answers (export download links) are used as they are.
    response = await fetch(path.startsWith('/api/') ? path : buildUrl(path), {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: controller.signal,
    });
  } catch {
    throw new NetworkError(controller.signal.aborted);
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = await response.json();
      if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    if (response.status === 401) {
      const target = loginRedirectFor(window.location.pathname, window.location.search);
      if (target) {
        clearSession();
        window.location.assign(target);
      }
    }
    const { statusCode: _s, error: _e, message, reason, fields, ...data } = body;
    throw new ApiError(
      response.status,
      typeof message === 'string' ? message : response.statusText,
      typeof reason === 'string' ? reason : undefined,
      fields && typeof fields === 'object' ? (fields as Record<string, string>) : undefined,
      data,
    );
  }
  return response;
}

/**
 * A wallet command: JSON with the bearer token and an `Idempotency-Key` header
 * (the shared client has no header option yet; errors are the same ApiError).
 */
export async function command<T>(
  path: string,
  idempotencyKey: string,
  body?: unknown,
  method: 'GET' | 'POST' | 'PUT' = 'POST',
): Promise<T> {
  const response = await send(method, path, { body, idempotencyKey });
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

// Spreadsheet downloads (and background exports) live in export.ts.
export { downloadSpreadsheet } from './export.js';
