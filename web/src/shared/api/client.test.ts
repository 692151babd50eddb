import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error.js';
import { api, apiResponse, buildUrl, command, setUnauthorizedHandler } from './client.js';
import { idempotencyKeyFor, newIdempotencyKey } from './idempotency.js';

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

describe('the one API client', () => {
  let calls: Call[];
  let answer: () => Response;
  let redirects: string[];

  beforeEach(() => {
    calls = [];
    redirects = [];
    answer = () => Response.json({ ok: true });
    vi.stubGlobal('localStorage', new MemoryStorage());
    vi.stubGlobal('sessionStorage', new MemoryStorage());
    vi.stubGlobal('window', { location: { pathname: '/wallet', search: '?page=2' } });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({
        url,
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string>,
        body: init.body === undefined ? undefined : JSON.parse(init.body as string),
      });
      return answer();
    });
    localStorage.setItem('access_token', 'T1');
    setUnauthorizedHandler((target) => redirects.push(target));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends a money command with its Idempotency-Key, the token and the JSON body', async () => {
    const key = newIdempotencyKey();
    expect(await command('/wallet/make-transfer', key, { body: { amount: 5 } })).toEqual({
      ok: true,
    });
    expect(calls).toEqual([
      {
        url: '/api/wallet/make-transfer',
        method: 'POST',
        headers: {
          accept: 'application/json',
          authorization: 'Bearer T1',
          'idempotency-key': key,
          'content-type': 'application/json',
        },
        body: { amount: 5 },
      },
    ]);
    await command('/supply/verify/tx-1', idempotencyKeyFor('verify', 'tx-1'), { method: 'GET' });
    expect(calls[1]).toMatchObject({
      method: 'GET',
      headers: { 'idempotency-key': 'verify:tx-1' },
    });
  });

  it('will not send a money command without a key', async () => {
    // @ts-expect-error a plain string is not an idempotency key
    await expect(command('/financement', '', { body: {} })).rejects.toThrow(/idempotency key/);
    // @ts-expect-error the key is required
    await expect(command('/financement')).rejects.toThrow(/idempotency key/);
    expect(calls).toEqual([]);
  });

  it('reads (api) send no Idempotency-Key', async () => {
    await api('/transaction', { query: { page: 2, q: undefined, status: '' } });
    expect(calls[0]!.url).toBe('/api/transaction?page=2');
    expect(calls[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('has one 401 behaviour for reads and commands: session cleared, login with the way back', async () => {
    answer = () => Response.json({ statusCode: 401, message: 'Non authentifié' }, { status: 401 });
    await expect(api('/wallet/stats')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('access_token')).toBeNull();
    localStorage.setItem('access_token', 'T1');
    await expect(command('/financement', newIdempotencyKey(), { body: {} })).rejects.toThrow(
      ApiError,
    );
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(redirects).toEqual([
      '/auth/login?redirect=%2Fwallet%3Fpage%3D2',
      '/auth/login?redirect=%2Fwallet%3Fpage%3D2',
    ]);
  });

  it('throws one error type with the status, French message, reason and fields', async () => {
    answer = () =>
      Response.json(
        {
          statusCode: 422,
          error: 'Unprocessable Entity',
          message: 'Solde insuffisant',
          reason: 'INSUFFICIENT_FUNDS',
          fields: { amount: 'Montant trop élevé' },
          available: 10,
        },
        { status: 422 },
      );
    const error = await command('/wallet/make-debit/w1', newIdempotencyKey(), { body: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      message: 'Solde insuffisant',
      reason: 'INSUFFICIENT_FUNDS',
      fields: { amount: 'Montant trop élevé' },
      data: { available: 10 },
    });
    expect(redirects).toEqual([]);
  });

  it('uses addresses the API answered as they are, and hands downloads the raw answer', async () => {
    expect(buildUrl('/api/transaction/export/j1')).toBe('/api/transaction/export/j1');
    expect(buildUrl('/supply/verify/t?reference=R', { page: 1 })).toBe(
      '/api/supply/verify/t?reference=R&page=1',
    );
    answer = () =>
      new Response('xlsx', { headers: { 'content-type': 'application/octet-stream' } });
    const response = await apiResponse('/api/transaction/export/j1/download', { accept: 'x' });
    expect(await response.text()).toBe('xlsx');
    expect(calls[0]).toMatchObject({
      url: '/api/transaction/export/j1/download',
      headers: { accept: 'x' },
    });
  });
});
