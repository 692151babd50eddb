import { describe, expect, it } from 'vitest';
import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  ValidationError,
} from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import {
  cancelDeliveryContract,
  confirmDeliveryContract,
  createDeliveryContract,
  defaultDeliveryDate,
  markOutOfTime,
  recordDelivery,
} from './delivery-contract.js';
import { contractEventUnion } from './events.js';
import { AGG, COOP_USER, GROWER, GROWER_USER, InMemoryContracts, NOW } from './test-fixtures.js';

const aggregator = { userId: AGG, role: ROLE.INDUSTRIAL };
const grower = { userId: GROWER_USER, role: ROLE.GROWER };
const coop = { userId: COOP_USER, role: ROLE.FARMER_ORGANIZATION };

const command = {
  contractId: 'c1',
  reference: 'LIV-0001',
  growerId: GROWER,
  growerUserId: GROWER_USER,
  plotId: 'plot-1',
  quantityKg: 10_000,
  amount: 1_000_000,
  acceptanceCode: {
    codeId: 'code-1',
    phone: '+2290197000001',
    salt: 's1',
    scheme: 'HMAC-SHA256' as const,
    codeHash: 'h1',
  },
};

function givenCreated(available = 5_000_000) {
  const store = new InMemoryContracts();
  store.apply(
    createDeliveryContract(store.contract('c1'), command, aggregator, {
      now: NOW,
      availableBalance: available,
      plotOfGrower: true,
    }),
  );
  return store;
}

function givenConfirmed() {
  const store = givenCreated();
  store.apply(
    confirmDeliveryContract(store.contract('c1'), grower, {
      now: NOW,
      cooperativeUserId: COOP_USER,
    }),
  );
  return store;
}

describe('create a delivery contract', () => {
  it('is PENDING, states the hold of its amount, and defaults its date to today + 5 months', () => {
    const store = new InMemoryContracts();
    const result = store.apply(
      createDeliveryContract(store.contract('c1'), command, aggregator, {
        now: NOW,
        availableBalance: 1_000_000,
        plotOfGrower: true,
      }),
    );
    expect(result.hold).toEqual({
      holdId: 'contract-c1',
      aggregatorUserId: AGG,
      amount: 1_000_000,
      purpose: 'Contrat de livraison LIV-0001',
    });
    expect(store.contract('c1')).toMatchObject({
      status: 'PENDING',
      deliveryDate: '2027-04-25',
      aggregatorUserId: AGG,
      quantityKg: 10_000,
      amount: 1_000_000,
    });
    for (const event of store.events('contract-c1')) {
      expect(contractEventUnion.parse(event)).toEqual(event);
    }
  });

  it('answers 422 with the missing amount when the available balance is short', () => {
    const store = new InMemoryContracts();
    const attempt = () =>
      createDeliveryContract(store.contract('c1'), command, aggregator, {
        now: NOW,
        availableBalance: 765_432,
        plotOfGrower: true,
      });
    expect(attempt).toThrow(BusinessRuleError);
    expect(attempt).toThrow(
      expect.objectContaining({
        statusCode: 422,
        message: `Le solde disponible de votre wallet est insuffisant pour créer ce contrat. Il manque ${new Intl.NumberFormat('fr-FR').format(234_568)} FCFA`,
        data: { missingAmount: 234_568 },
      }),
    );
  });

  it('refuses a non-aggregator, a reused id, bad fields and a plot of another grower', () => {
    const store = givenCreated();
    const facts = { now: NOW, availableBalance: 10_000_000, plotOfGrower: true };
    expect(() => createDeliveryContract(store.contract('c1'), command, aggregator, facts)).toThrow(
      ConflictError,
    );
    expect(() =>
      createDeliveryContract(store.contract('c2'), { ...command, contractId: 'c2' }, grower, facts),
    ).toThrow(ForbiddenError);
    const bad = () =>
      createDeliveryContract(
        store.contract('c3'),
        { ...command, contractId: 'c3', quantityKg: 0, amount: 1.5, deliveryDate: '2026-11-24' },
        aggregator,
        { ...facts, plotOfGrower: false },
      );
    expect(bad).toThrow(ValidationError);
    expect(bad).toThrow(
      expect.objectContaining({
        data: {
          fields: {
            quantity: 'Entré non valide',
            amount: 'Entré non valide',
            deliveryDate: 'La date de livraison ne peut pas être passée',
            productId: 'Cette parcelle n’appartient pas à ce producteur',
          },
        },
      }),
    );
  });

  it('today + 5 months clamps to the last day of a shorter month', () => {
    expect(defaultDeliveryDate('2026-09-30')).toBe('2027-02-28');
    expect(defaultDeliveryDate('2027-09-30')).toBe('2028-02-29');
    expect(defaultDeliveryDate('2026-01-15')).toBe('2026-06-15');
  });
});

describe('confirm', () => {
  it('PENDING → CONFIRMED by the grower or its cooperative (with the code); twice changes nothing', () => {
    const store = givenCreated();
    const facts = {
      now: NOW,
      cooperativeUserId: COOP_USER,
      code: { codeId: 'code-1', codeHash: 'h1' },
    };
    store.apply(confirmDeliveryContract(store.contract('c1'), coop, facts));
    expect(store.contract('c1').status).toBe('CONFIRMED');
    expect(confirmDeliveryContract(store.contract('c1'), grower, facts).writes).toEqual([]);
  });

  it('refuses anybody else (403) and a contract past confirmation (422)', () => {
    const store = givenCreated();
    expect(() =>
      confirmDeliveryContract(store.contract('c1'), aggregator, {
        now: NOW,
        cooperativeUserId: null,
      }),
    ).toThrow(ForbiddenError);
    store.apply(cancelDeliveryContract(store.contract('c1'), aggregator, { now: NOW }));
    expect(() =>
      confirmDeliveryContract(store.contract('c1'), grower, { now: NOW, cooperativeUserId: null }),
    ).toThrow(BusinessRuleError);
  });
});

describe('record the delivery', () => {
  it('CONFIRMED → DELIVERED with the weighed kg and date; the same record again is a no-op', () => {
    const store = givenConfirmed();
    const delivery = { deliveredKg: 9_500, deliveredOn: '2026-11-25' };
    store.apply(recordDelivery(store.contract('c1'), delivery, aggregator, { now: NOW }));
    expect(store.contract('c1')).toMatchObject({
      status: 'DELIVERED',
      deliveredKg: 9_500,
      deliveredOn: '2026-11-25',
    });
    expect(recordDelivery(store.contract('c1'), delivery, aggregator, { now: NOW }).writes).toEqual(
      [],
    );
    expect(() =>
      recordDelivery(store.contract('c1'), { ...delivery, deliveredKg: 9_000 }, aggregator, {
        now: NOW,
      }),
    ).toThrow(BusinessRuleError);
  });

  it('refuses a PENDING contract, another aggregator, a future date and a zero quantity', () => {
    const pending = givenCreated();
    const delivery = { deliveredKg: 9_500, deliveredOn: '2026-11-25' };
    expect(() =>
      recordDelivery(pending.contract('c1'), delivery, aggregator, { now: NOW }),
    ).toThrow('Ce contrat n’est pas encore confirmé par le producteur');
    const store = givenConfirmed();
    expect(() =>
      recordDelivery(
        store.contract('c1'),
        delivery,
        { userId: 'x', role: ROLE.INDUSTRIAL },
        { now: NOW },
      ),
    ).toThrow(ForbiddenError);
    expect(() =>
      recordDelivery(
        store.contract('c1'),
        { deliveredKg: 0, deliveredOn: '2026-11-26' },
        aggregator,
        { now: NOW },
      ),
    ).toThrow(
      expect.objectContaining({
        data: {
          fields: {
            quantity: 'Entré non valide',
            deliveredOn: 'La date de livraison ne peut pas être dans le futur',
          },
        },
      }),
    );
  });
});

describe("Benin's day, not the UTC day", () => {
  it('a delivery weighed today in Porto-Novo after 23:00 UTC is not in the future', () => {
    const store = givenConfirmed();
    // 23:30 UTC on the 25th is 00:30 on the 26th in Porto-Novo: the 26th is today there.
    store.apply(
      recordDelivery(
        store.contract('c1'),
        { deliveredKg: 9_500, deliveredOn: '2026-11-26' },
        aggregator,
        { now: '2026-11-25T23:30:00.000Z' },
      ),
    );
    expect(store.contract('c1')).toMatchObject({ status: 'DELIVERED', deliveredOn: '2026-11-26' });
  });
});

describe('out of time', () => {
  it('a CONFIRMED contract whose date has passed in Benin becomes OUTTIME; before or on the date nothing', () => {
    const store = givenConfirmed();
    // 22:59 UTC is 23:59 in Porto-Novo (UTC+1): still the delivery date.
    expect(markOutOfTime(store.contract('c1'), { now: '2027-04-25T22:59:00.000Z' }).writes).toEqual(
      [],
    );
    // 23:00 UTC is already the next day in Porto-Novo.
    store.apply(markOutOfTime(store.contract('c1'), { now: '2027-04-25T23:00:00.000Z' }));
    expect(store.contract('c1').status).toBe('OUTTIME');
    expect(markOutOfTime(store.contract('c1'), { now: '2027-05-01T00:00:00.000Z' }).writes).toEqual(
      [],
    );
  });

  it('a PENDING or DELIVERED contract never becomes OUTTIME', () => {
    const store = givenCreated();
    expect(markOutOfTime(store.contract('c1'), { now: '2030-01-01T00:00:00.000Z' }).writes).toEqual(
      [],
    );
  });

  it('an OUTTIME contract cannot be delivered; cancelling it releases its hold', () => {
    const store = givenConfirmed();
    store.apply(markOutOfTime(store.contract('c1'), { now: '2027-05-01T00:00:00.000Z' }));
    expect(() =>
      recordDelivery(
        store.contract('c1'),
        { deliveredKg: 1, deliveredOn: '2027-05-01' },
        aggregator,
        {
          now: '2027-05-01T00:00:00.000Z',
        },
      ),
    ).toThrow('Ce contrat ne peut plus être livré');
    const result = store.apply(
      cancelDeliveryContract(store.contract('c1'), aggregator, { now: NOW }),
    );
    expect(result.release).toEqual({
      holdId: 'contract-c1',
      aggregatorUserId: AGG,
      amount: 1_000_000,
    });
  });
});

describe('cancel', () => {
  it('→ CANCELED releasing the hold; twice releases nothing; an admin may cancel', () => {
    const store = givenCreated();
    const result = store.apply(
      cancelDeliveryContract(
        store.contract('c1'),
        { userId: 'admin', role: ROLE.ADMIN },
        { now: NOW },
      ),
    );
    expect(result.release?.amount).toBe(1_000_000);
    expect(store.contract('c1').status).toBe('CANCELED');
    const again = cancelDeliveryContract(store.contract('c1'), aggregator, { now: NOW });
    expect(again.writes).toEqual([]);
    expect(again.result.release).toBeNull();
  });

  it('refuses a delivered contract and a stranger', () => {
    const store = givenConfirmed();
    expect(() => cancelDeliveryContract(store.contract('c1'), grower, { now: NOW })).toThrow(
      ForbiddenError,
    );
    store.apply(
      recordDelivery(
        store.contract('c1'),
        { deliveredKg: 1, deliveredOn: '2026-11-25' },
        aggregator,
        { now: NOW },
      ),
    );
    expect(() => cancelDeliveryContract(store.contract('c1'), aggregator, { now: NOW })).toThrow(
      'Un contrat livré ne peut plus être annulé',
    );
  });
});
