import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BusinessRuleError,
  ForbiddenError,
  TooManyRequestsError,
  ValidationError,
} from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import {
  acceptanceOfferSms,
  MAX_CODES,
  MAX_WRONG_CODES,
  resendAcceptanceCode,
  type CodeToIssue,
} from './acceptance.js';
import { evolveContract, initialContractState } from './contract-stream.js';
import type { ContractActor } from './decision.js';
import {
  cancelDeliveryContract,
  confirmDeliveryContract,
  createDeliveryContract,
  recordDelivery,
} from './delivery-contract.js';
import { contractEvent, type ContractEvent } from './events.js';
import { settleDeliveryContract } from './settlement.js';
import { AGG, COOP_USER, GROWER, GROWER_USER, InMemoryContracts, NOW } from './test-fixtures.js';

const aggregator = { userId: AGG, role: ROLE.INDUSTRIAL };
const grower = { userId: GROWER_USER, role: ROLE.GROWER };
const coop = { userId: COOP_USER, role: ROLE.FARMER_ORGANIZATION };
const PHONE = '+2290197000001';

/** Codes stand for their hash in these tests: code n is hashed `h<n>` with salt `s<n>`. */
const code = (n: number): CodeToIssue => ({
  codeId: `code-${n}`,
  phone: PHONE,
  salt: `s${n}`,
  scheme: 'HMAC-SHA256',
  codeHash: `h${n}`,
});
const entered = (n: number, hash = `h${n}`) => ({ codeId: `code-${n}`, codeHash: hash });
const later = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();

function givenCreated(acceptanceCode: CodeToIssue | null = code(1)) {
  const store = new InMemoryContracts();
  store.apply(
    createDeliveryContract(
      store.contract('c1'),
      {
        contractId: 'c1',
        reference: 'LIV-0001',
        growerId: GROWER,
        growerUserId: GROWER_USER,
        plotId: 'plot-1',
        productType: 'CAYENNE_LISSE',
        quantityKg: 2_500,
        amount: 300_000,
        deliveryDate: '2027-05-15',
        acceptanceCode,
      },
      aggregator,
      { now: NOW, availableBalance: 5_000_000, plotOfGrower: true },
    ),
  );
  return store;
}

const byCoop = (store: InMemoryContracts, code: { codeId: string; codeHash: string } | null) =>
  confirmDeliveryContract(store.contract('c1'), coop, {
    now: NOW,
    cooperativeUserId: COOP_USER,
    code,
  });

describe('acceptance code on creation', () => {
  it('is issued with the contract, the code only as its salted hash', () => {
    const store = givenCreated();
    const [, issued] = store.events('contract-c1');
    expect(issued).toEqual(
      contractEvent('AcceptanceCodeIssued', {
        contractId: 'c1',
        ...code(1),
        issuedBy: AGG,
        issuedAt: NOW,
      }),
    );
    expect(store.contract('c1')).toMatchObject({
      status: 'PENDING',
      codesIssued: 1,
      acceptance: null,
      acceptanceCode: { codeId: 'code-1', wrongAttempts: 0 },
    });
  });

  it('the offer SMS says what, how much, the price per kg, the date and the code, in one GSM-7 segment', () => {
    const text = acceptanceOfferSms(givenCreated().contract('c1'), '042917');
    expect(text).toBe(
      'Filière: contrat LIV-0001, 2,5 t ananas Cayenne lisse à 120 F/kg, livraison au plus tard le 15/05/2027. Pour accepter, donnez le code 042917',
    );
    // The GSM 03.38 basic set (the escape table's characters count twice; none is used).
    const gsm7 =
      /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà]*$/;
    expect(text).toMatch(gsm7);
    expect(text.length).toBeLessThanOrEqual(160);
    const big = acceptanceOfferSms(
      {
        reference: 'LIV-ABCDEF12',
        productType: 'PAIN_DE_SUCRE',
        quantityKg: 1_234_567,
        amount: 987_654_321,
        deliveryDate: '2027-12-31',
      },
      '999999',
    );
    expect(big).toMatch(gsm7);
    expect(big.length).toBeLessThanOrEqual(160);
    expect(big).toContain('1 234,567 t ananas Pain de sucre à 800 F/kg');
  });
});

describe('confirm with the grower’s code', () => {
  it('the cooperative with the right code: CONFIRMED and the acceptance recorded (who, when, which phone)', () => {
    const store = givenCreated();
    const result = store.apply(byCoop(store, entered(1)));
    expect(result).toEqual({ contractId: 'c1', reference: 'LIV-0001', status: 'CONFIRMED' });
    expect(store.events('contract-c1').slice(-2)).toEqual([
      contractEvent('DeliveryContractConfirmed', {
        contractId: 'c1',
        confirmedBy: COOP_USER,
        confirmedAt: NOW,
      }),
      contractEvent('DeliveryContractAccepted', {
        contractId: 'c1',
        method: 'CODE',
        acceptedBy: COOP_USER,
        acceptedAt: NOW,
        phone: PHONE,
        codeId: 'code-1',
        codeHash: 'h1',
      }),
    ]);
    expect(store.contract('c1').acceptance).toEqual({
      method: 'CODE',
      acceptedBy: COOP_USER,
      acceptedAt: NOW,
      phone: PHONE,
    });
    // Again: nothing more (the acceptance is recorded once).
    expect(byCoop(store, entered(1)).writes).toEqual([]);
  });

  it('the grower signed in: his own confirmation is his consent, without a code', () => {
    const store = givenCreated(null);
    store.apply(
      confirmDeliveryContract(store.contract('c1'), grower, { now: NOW, cooperativeUserId: null }),
    );
    expect(store.contract('c1')).toMatchObject({
      status: 'CONFIRMED',
      acceptance: { method: 'GROWER_SIGNED_IN', acceptedBy: GROWER_USER, phone: null },
    });
  });

  it('the cooperative without a code, or when no code was sent, is refused and writes nothing', () => {
    expect(() => byCoop(givenCreated(), null)).toThrow(ValidationError);
    expect(() => byCoop(givenCreated(null), entered(1))).toThrow(
      'Aucun code n’a été envoyé au producteur pour ce contrat. Renvoyez le code',
    );
  });

  it(`${MAX_WRONG_CODES} wrong codes lock the code, even the right one, until a new one is sent`, () => {
    const store = givenCreated();
    for (let i = 1; i <= MAX_WRONG_CODES; i++) {
      const result = store.apply(byCoop(store, entered(1, 'wrong')));
      expect(result.wrongCode).toEqual({ remaining: MAX_WRONG_CODES - i });
      expect(result.status).toBe('PENDING');
    }
    expect(
      store.events('contract-c1').filter((e) => e.type === 'AcceptanceCodeRejected'),
    ).toHaveLength(MAX_WRONG_CODES);
    expect(() => byCoop(store, entered(1))).toThrow(
      'Ce code est bloqué après trop d’essais erronés. Renvoyez un nouveau code au producteur',
    );
    store.apply(
      resendAcceptanceCode(store.contract('c1'), code(2), coop, {
        now: later(60),
        cooperativeUserId: COOP_USER,
      }),
    );
    // The old code no longer counts; the new one is accepted.
    expect(store.apply(byCoop(store, entered(1))).wrongCode).toEqual({
      remaining: MAX_WRONG_CODES - 1,
    });
    expect(store.apply(byCoop(store, entered(2))).status).toBe('CONFIRMED');
  });
});

describe('resend the code', () => {
  it('once a minute, at most MAX_CODES per contract, while PENDING, by the aggregator or the cooperative', () => {
    const store = givenCreated();
    const resend = (n: number, seconds: number, actor: ContractActor = coop) =>
      resendAcceptanceCode(store.contract('c1'), code(n), actor, {
        now: later(seconds),
        cooperativeUserId: COOP_USER,
      });
    expect(() => resend(2, 59)).toThrow(TooManyRequestsError);
    expect(() => resend(2, 60, grower)).toThrow(ForbiddenError);
    expect(() => resend(2, 60, { userId: 'x', role: ROLE.INDUSTRIAL })).toThrow(ForbiddenError);
    store.apply(resend(2, 60, aggregator));
    for (let n = 3; n <= MAX_CODES; n++) store.apply(resend(n, 60 * n));
    expect(store.contract('c1').codesIssued).toBe(MAX_CODES);
    expect(() => resend(MAX_CODES + 1, 3600)).toThrow(
      'Trop de codes ont été envoyés pour ce contrat. Annulez-le et créez-en un nouveau',
    );
    const confirmed = givenCreated();
    confirmed.apply(
      confirmDeliveryContract(confirmed.contract('c1'), grower, {
        now: NOW,
        cooperativeUserId: null,
      }),
    );
    expect(() =>
      resendAcceptanceCode(confirmed.contract('c1'), code(2), coop, {
        now: later(60),
        cooperativeUserId: COOP_USER,
      }),
    ).toThrow(BusinessRuleError);
  });
});

describe('no delivery, no run without the acceptance', () => {
  it('a CONFIRMED stream without its acceptance can be neither delivered nor run', () => {
    const created = givenCreated().events('contract-c1');
    const confirmedOnly: ContractEvent[] = [
      ...created,
      contractEvent('DeliveryContractConfirmed', {
        contractId: 'c1',
        confirmedBy: COOP_USER,
        confirmedAt: NOW,
      }),
    ];
    const state = confirmedOnly.reduce(evolveContract, initialContractState());
    expect(() =>
      recordDelivery(state, { deliveredKg: 2_500, deliveredOn: '2026-11-25' }, aggregator, {
        now: NOW,
      }),
    ).toThrow('Ce contrat n’a pas l’accord du producteur : il ne peut pas être livré');
    const delivered = evolveContract(
      state,
      contractEvent('DeliveryRecorded', {
        contractId: 'c1',
        deliveredKg: 2_500,
        deliveredOn: '2026-11-25',
        recordedBy: AGG,
        recordedAt: NOW,
      }),
    );
    expect(() =>
      settleDeliveryContract(delivered, [], aggregator, {
        now: NOW,
        aggregatorAvailable: 0,
        payout: null,
      }),
    ).toThrow('Ce contrat n’a pas l’accord du producteur : il ne peut pas être exécuté');
  });

  it('any sequence of commands: delivered only after one acceptance, recorded with its confirmation', () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('coop' as const), right: fc.boolean() }),
      fc.record({ op: fc.constant('grower' as const) }),
      fc.record({ op: fc.constant('resend' as const) }),
      fc.record({ op: fc.constant('deliver' as const) }),
      fc.record({ op: fc.constant('cancel' as const) }),
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(step, { maxLength: 30 }), (withCode, steps) => {
        const store = givenCreated(withCode ? code(1) : null);
        let n = 1;
        let t = 0;
        const attempt = (run: () => unknown) => {
          try {
            run();
          } catch (error) {
            if (!(error instanceof Error) || !('statusCode' in error)) throw error;
          }
        };
        for (const s of steps) {
          t += 30;
          const state = store.contract('c1');
          const now = later(t);
          attempt(() => {
            if (s.op === 'coop') {
              const current = state.acceptanceCode?.codeId ?? 'none';
              store.apply(
                confirmDeliveryContract(state, coop, {
                  now,
                  cooperativeUserId: COOP_USER,
                  code: { codeId: current, codeHash: s.right ? `h${current.slice(5)}` : 'x' },
                }),
              );
            } else if (s.op === 'grower') {
              store.apply(
                confirmDeliveryContract(state, grower, { now, cooperativeUserId: COOP_USER }),
              );
            } else if (s.op === 'resend') {
              store.apply(
                resendAcceptanceCode(state, code(n + 1), aggregator, {
                  now,
                  cooperativeUserId: COOP_USER,
                }),
              );
              n++;
            } else if (s.op === 'deliver') {
              store.apply(
                recordDelivery(
                  state,
                  { deliveredKg: 2_000, deliveredOn: '2026-11-25' },
                  aggregator,
                  {
                    now,
                  },
                ),
              );
            } else {
              store.apply(cancelDeliveryContract(state, aggregator, { now }));
            }
          });
        }
        const types = store.events('contract-c1').map((e) => e.type);
        const accepted = types.indexOf('DeliveryContractAccepted');
        expect(types.filter((x) => x === 'DeliveryContractAccepted').length).toBeLessThanOrEqual(1);
        expect(types.filter((x) => x === 'DeliveryContractConfirmed').length).toBe(
          accepted >= 0 ? 1 : 0,
        );
        if (accepted >= 0) expect(types[accepted - 1]).toBe('DeliveryContractConfirmed');
        const delivered = types.indexOf('DeliveryRecorded');
        if (delivered >= 0) expect(accepted).toBeGreaterThanOrEqual(0);
        if (delivered >= 0) expect(accepted).toBeLessThan(delivered);
        // No more wrong codes counted for one code than the limit.
        const rejected = store
          .events('contract-c1')
          .filter((e) => e.type === 'AcceptanceCodeRejected')
          .map((e) => e.data.wrongAttempts);
        expect(Math.max(0, ...rejected)).toBeLessThanOrEqual(MAX_WRONG_CODES);
      }),
      { numRuns: 300 },
    );
  });
});
