import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  INVALIDATIONS,
  invalidationsFor,
  parsePush,
  socketUrl,
  type PushMessage,
  type PushType,
} from './invalidations.js';

const push = (raw: object) => parsePush(JSON.stringify(raw))!;

describe('realtime push → query invalidations', () => {
  it("maps the wallet projectors' push types (projections/src/wallet)", () => {
    expect(invalidationsFor(push({ type: 'wallet.updated', data: null }))).toEqual([
      ['wallet'],
      ['transaction'],
    ]);
    expect(invalidationsFor(push({ type: 'transactions.updated' }))).toEqual([
      ['wallet'],
      ['transaction'],
    ]);
    expect(invalidationsFor(push({ type: 'supplies.updated' }))).toEqual([
      ['wallet'],
      ['transaction'],
      ['supply'],
    ]);
    expect(invalidationsFor(push({ type: 'financing.updated' }))).toEqual([
      ['wallet'],
      ['transaction'],
      ['financement'],
    ]);
    expect(invalidationsFor(push({ type: 'reporting.updated' }))).toEqual([]);
    expect(invalidationsFor(push({ type: 'reporting.dashboard' }))).toEqual([['dashboard']]);
    const settled = push({
      type: 'withdrawal.settled',
      data: { withdrawalId: 'RET-1', amount: 20_000, status: 'FAILED' },
    });
    expect(settled.data).toEqual({ withdrawalId: 'RET-1', amount: 20_000, status: 'FAILED' });
    expect(invalidationsFor(settled)).toEqual([['wallet'], ['transaction']]);
  });

  it("refreshes the user queries on the identity context's pushes only", () => {
    expect(
      invalidationsFor(push({ type: 'user.inactive.created', data: { userId: 'u', role: 'R' } })),
    ).toEqual([['users']]);
    expect(
      invalidationsFor(
        push({ type: 'user.status.changed', data: { userId: 'u', isActive: true } }),
      ),
    ).toEqual([['users'], ['seasons', 'catalogue', 'industrials']]);
    expect(invalidationsFor(push({ type: 'user.deleted', data: { userId: 'u' } }))).toEqual([
      ['users'],
      ['seasons', 'catalogue', 'industrials'],
    ]);
    // A new aggregator to add: the seasons' aggregator autocomplete, whatever its search.
    expect(invalidationsFor(push({ type: 'user.industrialToAdd', data: { userId: 'u' } }))).toEqual(
      [['seasons', 'catalogue', 'industrials']],
    );
    // Each type says exactly what it refreshes (a substring match would send every type
    // holding "supply" or "user" to the wallet's and the users' queries).
    for (const type of Object.keys(INVALIDATIONS) as PushType[]) {
      const keys = INVALIDATIONS[type](null as never).map((k) => k[0]);
      if (!type.startsWith('user.')) expect(keys, type).not.toContain('users');
      if (type !== 'supplies.updated') expect(keys, type).not.toContain('supply');
    }
  });

  it('refreshes the growers queries when a grower changes', () => {
    expect(
      invalidationsFor(push({ type: 'actors.grower.changed', data: { growerId: 'g' } })),
    ).toEqual([['growers']]);
  });

  it('refreshes the suppliers queries when a supplier changes', () => {
    expect(
      invalidationsFor(push({ type: 'actors.supplier.changed', data: { supplierId: 's' } })),
    ).toEqual([['input-provider']]);
  });

  it('refreshes the carriers and cooperatives queries (and the growers form’s select) when one changes', () => {
    expect(
      invalidationsFor(push({ type: 'actors.carrier.changed', data: { carrierId: 'c' } })),
    ).toEqual([['carriers']]);
    expect(
      invalidationsFor(push({ type: 'actors.cooperative.changed', data: { cooperativeId: 'o' } })),
    ).toEqual([['cooperatives'], ['growers', 'cooperative-options']]);
  });

  it('refreshes the seasons queries on a season invitation or a changed link', () => {
    expect(
      invalidationsFor(push({ type: 'seasons.invitation', data: { seasonId: 1, linkId: 2 } })),
    ).toEqual([['seasons']]);
    expect(invalidationsFor(push({ type: 'seasons.updated', data: { seasonId: 1 } }))).toEqual([
      ['seasons'],
    ]);
  });

  it('refreshes the request lists (and deliveries, wallet) on a grower request push', () => {
    expect(
      invalidationsFor(
        push({ type: 'seasons.request', data: { requestId: 1, type: 'INPUT', seasonId: 2 } }),
      ),
    ).toEqual([['season-requests']]);
    expect(
      invalidationsFor(
        push({
          type: 'seasons.requestUpdated',
          data: { requestId: 1, type: 'PINEAPLE', status: 'CONFIRMED' },
        }),
      ),
    ).toContainEqual(['season-requests']);
  });

  it('ignores control and export messages', () => {
    for (const type of ['ready', 'joined', 'pong', 'error', 'export.progress', 'export.ready']) {
      expect(invalidationsFor(push({ type, data: {} }))).toEqual([]);
    }
  });

  it('has an entry for every push type, and none for types the server does not send', () => {
    expect(Object.keys(INVALIDATIONS).sort()).toEqual(
      [
        'actors.carrier.changed',
        'actors.cooperative.changed',
        'actors.grower.changed',
        'actors.supplier.changed',
        'audit.integrity',
        'contracts.run',
        'contracts.updated',
        'error',
        'export.failed',
        'export.progress',
        'export.ready',
        'financing.updated',
        'joined',
        'pong',
        'ready',
        'reconciliation.changed',
        'reporting.board',
        'reporting.dashboard',
        'reporting.updated',
        'resync',
        'seasons.inputs',
        'seasons.invitation',
        'seasons.request',
        'seasons.requestUpdated',
        'seasons.updated',
        'sms.changed',
        'supplies.updated',
        'supply.rejected',
        'transactions.updated',
        'user.deleted',
        'user.inactive.created',
        'user.industrialToAdd',
        'user.status.changed',
        'wallet.updated',
        'withdrawal.settled',
      ].sort(),
    );
    // A run's progress refreshes the contracts' queries (the run's banner, the lists).
    expect(
      invalidationsFor({
        type: 'contracts.run',
        data: { runId: 'r', contractId: 'c', status: 'COMPLETED', done: 1, total: 3 },
      }),
    ).toContainEqual(['contracts']);
    // An unknown type does not compile …
    // @ts-expect-error 'supply.verified' is not a push type
    const unknown: PushMessage = { type: 'supply.verified', data: null };
    // … and an unknown type received (a newer server's) is dropped when read.
    expect(parsePush(JSON.stringify(unknown))).toBeNull();
    expect(parsePush('{"type":"season.invited","data":{}}')).toBeNull();
  });

  it('backs off from half a second to thirty seconds', () => {
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(3, () => 0)).toBe(4000);
    expect(backoffDelay(20, () => 0)).toBe(30_000);
    expect(backoffDelay(20, () => 1)).toBe(36_000);
  });

  it('builds the socket address with the token and reads only {type} messages', () => {
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:3000' }, 'a.b c')).toBe(
      'ws://127.0.0.1:3000/api/ws?token=a.b%20c',
    );
    expect(socketUrl({ protocol: 'https:', host: 'x.bj' }, 't')).toBe('wss://x.bj/api/ws?token=t');
    expect(parsePush('{"type":"export.ready","data":{"jobId":"j","url":"/api/x"}}')).toEqual({
      type: 'export.ready',
      data: { jobId: 'j', url: '/api/x' },
    });
    expect(parsePush('{"type":"wallet.updated"}')).toEqual({ type: 'wallet.updated', data: null });
    expect(parsePush('nope')).toBeNull();
    expect(parsePush('{"data":1}')).toBeNull();
  });
});
