import { describe, expect, it } from 'vitest';
import { backoffDelay, invalidationsFor, parsePush, socketUrl } from './invalidations.js';

describe('realtime push → query invalidations', () => {
  it('refreshes the balance and the transactions on a wallet or transaction push', () => {
    expect(invalidationsFor({ type: 'wallet.balance' })).toEqual([['wallet'], ['transaction']]);
    expect(invalidationsFor({ type: 'transaction.created' })).toEqual([
      ['wallet'],
      ['transaction'],
    ]);
  });

  it('refreshes the supplies on a supply push, the financings on a financing push', () => {
    expect(invalidationsFor({ type: 'supply.verified' })).toContainEqual(['supply']);
    expect(invalidationsFor({ type: 'financing.created' })).toContainEqual(['financement']);
  });

  it("maps the wallet projectors' push types (projections/src/wallet)", () => {
    expect(invalidationsFor({ type: 'wallet.updated' })).toEqual([['wallet'], ['transaction']]);
    expect(invalidationsFor({ type: 'transactions.updated' })).toContainEqual(['transaction']);
    expect(invalidationsFor({ type: 'supplies.updated' })).toEqual([
      ['wallet'],
      ['transaction'],
      ['supply'],
    ]);
    expect(invalidationsFor({ type: 'financing.updated' })).toContainEqual(['financement']);
    expect(invalidationsFor({ type: 'export.ready' })).toEqual([]);
  });

  it('ignores control messages and unknown types', () => {
    for (const type of ['ready', 'joined', 'pong', 'error', 'season.invited']) {
      expect(invalidationsFor({ type })).toEqual([]);
    }
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
    expect(parsePush('{"type":"wallet.balance","data":{"balance":5}}')).toEqual({
      type: 'wallet.balance',
      data: { balance: 5 },
    });
    expect(parsePush('nope')).toBeNull();
    expect(parsePush('{"data":1}')).toBeNull();
  });
});
