import { clearSession, getToken } from '../auth/session.js';
import { ApiError, NetworkError } from './api-error.js';
import { loginRedirectFor } from './unauthorized.js';

export const API_ROOT = '/api';
export const REQUEST_TIMEOUT_MS = 10_000;

type Query = Record<string, string | number | undefined | null>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Query;
  /** Do not send the user to login on a 401 (the login form itself). */
  skipAuthRedirect?: boolean;
}

let onUnauthorized: (target: string) => void = (target) => window.location.assign(target);

/** The router installs a client-side navigation for 401 redirects. */
export function setUnauthorizedHandler(handler: (target: string) => void): void {
  onUnauthorized = handler;
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_ROOT}${path.startsWith('/') ? path : `/${path}`}${qs ? `?${qs}` : ''}`;
}

/** JSON call to the API with the bearer token and a 10 s time-out. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
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
  const text = await response.text();
  let payload: unknown = undefined;
  if (text) {
    try {
      payload = JSON.parse(text);
    } catch {
      payload = text;
    }
  }
  if (!response.ok) {
    const body = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
    if (response.status === 401 && !options.skipAuthRedirect) {
      const target = loginRedirectFor(window.location.pathname, window.location.search);
      if (target) {
        clearSession();
        onUnauthorized(target);
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
  return payload as T;
}
