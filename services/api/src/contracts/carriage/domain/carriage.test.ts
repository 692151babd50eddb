import { describe, expect, it } from 'vitest';
import { ROLE } from '../../../kernel/roles.js';
import {
  cancelCarriageContract,
  carriageHoldId,
  carriageStreamId,
  createCarriageContract,
  evolveCarriage,
  initialCarriageState,
  payCarriageContract,
  portoNovoDay,
  type CarriageDecision,
  type CarriageState,
} from './carriage.js';

const aggregator = { userId: 'agg-1', role: ROLE.INDUSTRIAL };
const otherAggregator = { userId: 'agg-2', role: ROLE.INDUSTRIAL };
const admin = { userId: 'admin-1', role: ROLE.ADMIN };
const now = '2026-11-22T10:00:00.000Z';
const command = {
  contractId: 'c1',
  reference: 'TRA-C1',
  carrierId: 'carrier-1',
  carrierUserId: 'carrier-user-1',
  vehicleId: 'v1',
  carType: 'CAMION',
  registration: 'AB 1234 RB',
  transportDate: '2026-11-20',
  amount: 40_000,
  description: null,
};

/** given: the events a decision wrote, folded. */
const fold = (state: CarriageState, decided: CarriageDecision<unknown>) =>
  decided.writes.flatMap((w) => w.events).reduce(evolveCarriage, state);
const created = () =>
  fold(
    initialCarriageState(),
    createCarriageContract(initialCarriageState(), command, aggregator, { now }),
  );

describe('carriage contract decider', () => {
  it('create: one event on carriage-<id> and the hold to place (whole amount)', () => {
    const decided = createCarriageContract(initialCarriageState(), command, aggregator, { now });
    expect(decided.writes).toEqual([
      {
        streamId: carriageStreamId('c1'),
        events: [expect.objectContaining({ type: 'CarriageContractCreated' })],
      },
    ]);
    expect(decided.result.hold).toEqual({
      holdId: carriageHoldId('c1'),
      amount: 40_000,
      purpose: 'Contrat de transport TRA-C1',
    });
    expect(created()).toMatchObject({ exists: true, status: 'CREATED', aggregatorUserId: 'agg-1' });
  });

  it('create: refused for another role, twice, or a non-integer amount', () => {
    expect(() => createCarriageContract(initialCarriageState(), command, admin, { now })).toThrow(
      /agrégateur/,
    );
    expect(() => createCarriageContract(created(), command, aggregator, { now })).toThrow(
      'Ce contrat de transport existe déjà',
    );
    expect(() =>
      createCarriageContract(initialCarriageState(), { ...command, amount: 10.5 }, aggregator, {
        now,
      }),
    ).toThrow();
  });

  it('cancel: releases the hold once; a second cancel writes nothing; out of reach 403', () => {
    const state = created();
    expect(() => cancelCarriageContract(state, otherAggregator, { now })).toThrow(
      'Ce contrat de transport ne vous appartient pas',
    );
    const canceled = cancelCarriageContract(state, aggregator, { now });
    expect(canceled.result.releaseHoldId).toBe(carriageHoldId('c1'));
    const after = fold(state, canceled);
    expect(after.status).toBe('CANCELED');
    const again = cancelCarriageContract(after, aggregator, { now });
    expect(again.writes).toEqual([]);
    expect(again.result.releaseHoldId).toBeNull();
    expect(() =>
      payCarriageContract(after, aggregator, { now, today: '2026-11-22', carrierWalletId: 'w' }),
    ).toThrow('Ce contrat de transport a été annulé');
  });

  it('pay: once, from the transport date, by its aggregator or an admin', () => {
    const state = created();
    expect(() =>
      payCarriageContract(state, aggregator, { now, today: '2026-11-19', carrierWalletId: 'w' }),
    ).toThrow(/pas encore eu lieu/);
    const paid = payCarriageContract(state, admin, {
      now,
      today: '2026-11-20',
      carrierWalletId: 'w',
    });
    expect(paid.result.settlement).toEqual({
      holdId: carriageHoldId('c1'),
      settlementId: 'carriage-pay-c1',
      amount: 40_000,
    });
    const after = fold(state, paid);
    expect(after.status).toBe('PAID');
    expect(() =>
      payCarriageContract(after, aggregator, { now, today: '2026-11-22', carrierWalletId: 'w' }),
    ).toThrow('Ce contrat de transport a déjà été payé');
    expect(() => cancelCarriageContract(after, aggregator, { now })).toThrow(
      'Ce contrat de transport a déjà été payé',
    );
  });

  it('the day is Porto-Novo’s (UTC+1): 23:30 UTC is already tomorrow', () => {
    expect(portoNovoDay(new Date('2026-11-22T23:30:00Z'))).toBe('2026-11-23');
    expect(portoNovoDay(new Date('2026-11-22T22:59:00Z'))).toBe('2026-11-22');
  });
});
