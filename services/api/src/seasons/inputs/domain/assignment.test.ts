import { describe, expect, it } from 'vitest';
import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '@filiere/platform';
import { holdBook, initialWalletState, type WalletState } from '../../../wallet/index.js';
import { seasonEvent } from '../../domain/events.js';
import {
  ADMIN,
  AGGREGATOR,
  NOW,
  OTHER_AGGREGATOR,
  SEASON_INPUT,
  given,
} from '../../domain/test-fixtures.js';
import {
  assignProvider,
  banProvider,
  evolveAssignment,
  initialAssignmentState,
  lineDoseKg,
  maxQuantity,
  maxQuantityMessage,
  type AssignmentState,
  type InputEvent,
  type ProviderFacts,
} from './index.js';

const PROVIDER = '00000000-0000-4000-8000-0000000000b1';
const OTHER_PROVIDER = '00000000-0000-4000-8000-0000000000b2';

const created = seasonEvent('SeasonCreated', {
  seasonId: 7,
  ...SEASON_INPUT,
  createdBy: ADMIN.userId,
});
// 100 t at 50 t/ha: H = 2 ha; line 1 (350 F/kg, 300 kg/ha) → 600 kg; line 2 (400 F, 150) → 300 kg.
const amounts = {
  quantity: 100_000,
  productionAmount: 12_000_000,
  fertilizerAmount: 330_000,
  minSupplyAmount: 1_530_000,
};
const attached = seasonEvent('IndustrialAttached', {
  seasonId: 7,
  linkId: 3,
  userId: AGGREGATOR.userId,
  ...amounts,
  attachedAt: NOW.toISOString(),
  expiresAt: '2026-12-02T10:00:00.000Z',
  attachedBy: ADMIN.userId,
});
const accepted = seasonEvent('IndustrialAccepted', {
  seasonId: 7,
  linkId: 3,
  userId: AGGREGATOR.userId,
  ...amounts,
  acceptedAt: NOW.toISOString(),
});
const confirmed = given(created, attached, accepted);

const wallet = (available: number): WalletState => ({
  ...initialWalletState(),
  opened: true,
  walletId: 'w-agg',
  ownerUserId: AGGREGATOR.userId,
  balance: available,
  availableBalance: available,
});
const provider: ProviderFacts = { userId: PROVIDER, active: true, fertilizerIds: [1, 2] };

const assign = (
  quantityKg: number,
  opts: {
    season?: typeof confirmed;
    available?: number;
    assignments?: AssignmentState[];
    actor?: typeof AGGREGATOR;
    fertilizerId?: number;
    provider?: ProviderFacts | null;
  } = {},
) =>
  assignProvider(
    {
      assignment: initialAssignmentState(),
      season: opts.season ?? confirmed,
      wallet: wallet(opts.available ?? 1_000_000),
    },
    { linkId: 3, fertilizerId: opts.fertilizerId ?? 1, quantityKg },
    {
      actor: opts.actor ?? AGGREGATOR,
      assignmentId: 11,
      now: NOW,
      provider: opts.provider === undefined ? provider : opts.provider,
      assignments: opts.assignments ?? [],
    },
  );

const stateAfter = (...events: InputEvent[]) =>
  events.reduce(evolveAssignment, initialAssignmentState());
const assignedEvent = (d: ReturnType<typeof assign>) =>
  d.writes.find((w) => w.streamId.startsWith('seasoninput-'))!.events[0] as InputEvent;

describe('maximum quantity (ceil(H × d_i) − assigned)', () => {
  it('is the line dose for the link: 2 ha × 300 kg/ha = 600 kg, 2 ha × 150 = 300 kg', () => {
    expect(maxQuantity(confirmed, AGGREGATOR.userId, 1, [])).toBe(600);
    expect(maxQuantity(confirmed, AGGREGATOR.userId, 2, [])).toBe(300);
  });

  it('rounds up exactly: 1 kg at 50 t/ha with 300 kg/ha → ceil(0.006) = 1; 52.5 t/ha, 10.1 kg/ha, 52 500 kg → 10.1 → 11', () => {
    expect(lineDoseKg({ productionIndex: 50 }, { index: 300 }, 1)).toBe(1);
    expect(lineDoseKg({ productionIndex: 52.5 }, { index: 10.1 }, 52_500)).toBe(11);
    // exact products are not pushed over by float error: 0.07 style
    expect(lineDoseKg({ productionIndex: 1 }, { index: 0.07 }, 100_000)).toBe(7);
  });

  it('subtracts active assignments, and for a banned one only what it delivered', () => {
    const first = stateAfter(assignedEvent(assign(200)));
    expect(maxQuantity(confirmed, AGGREGATOR.userId, 1, [first])).toBe(400);
    // banned after 50 kg delivered (17 500 F paid, 52 500 released)
    const banned = evolveAssignment(first, {
      type: 'InputProviderBanned',
      data: {
        assignmentId: 11,
        bannedBy: AGGREGATOR.userId,
        bannedAt: NOW.toISOString(),
        released: 52_500,
      },
    });
    expect(maxQuantity(confirmed, AGGREGATOR.userId, 1, [banned])).toBe(550);
    // another line is untouched
    expect(maxQuantity(confirmed, AGGREGATOR.userId, 2, [first])).toBe(300);
  });
});

describe('assignProvider', () => {
  it('writes InputProviderAssigned and the hold of kg × a_i on the industrial wallet, in one decision', () => {
    const d = assign(600);
    expect(d.writes.map((w) => w.streamId)).toEqual(['seasoninput-11', 'wallet-w-agg']);
    expect(assignedEvent(d)).toMatchObject({
      type: 'InputProviderAssigned',
      data: {
        assignmentId: 11,
        seasonId: 7,
        linkId: 3,
        industrialUserId: AGGREGATOR.userId,
        providerUserId: PROVIDER,
        fertilizerId: 1,
        typeId: 1,
        quantityKg: 600,
        unitAmount: 350,
        amount: 210_000,
        holdId: 'input-assignment-11',
      },
    });
    expect(d.writes[1]!.events[0]).toMatchObject({
      type: 'HoldPlaced',
      data: { holdId: 'input-assignment-11', amount: 210_000 },
    });
    expect(d.result).toMatchObject({ amount: 210_000, computedQte: 0 });
  });

  it('refuses above the maximum with the spec text and the maximum', () => {
    const first = stateAfter(assignedEvent(assign(500)));
    try {
      assign(101, { assignments: [first], provider: { ...provider, userId: OTHER_PROVIDER } });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(BusinessRuleError);
      expect((error as Error).message).toBe(maxQuantityMessage(100));
      expect((error as Error).message).toBe(
        "La quantité d'intrant doit être inférieur ou égale à 100",
      );
      expect((error as BusinessRuleError).data).toMatchObject({ maxQuantity: 100 });
    }
    expect(() =>
      assign(100, { assignments: [first], provider: { ...provider, userId: OTHER_PROVIDER } }),
    ).not.toThrow();
  });

  it('422 with the missing amount when the available balance is short, and writes nothing', () => {
    try {
      assign(600, { available: 200_000 });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(BusinessRuleError);
      expect((error as BusinessRuleError).data).toMatchObject({ missingAmount: 10_000 });
      expect((error as Error).message).toContain('Il manque 10 000 FCFA');
    }
  });

  it('only on the industrial’s own CONFIRMED link', () => {
    expect(() => assign(10, { season: given(created, attached) })).toThrow(
      'Veuillez accepter la saison avant afin d’ajouter un fournisseur d’intrant',
    );
    expect(() => assign(10, { actor: OTHER_AGGREGATOR })).toThrow(ForbiddenError);
    expect(() => assign(10, { actor: ADMIN })).toThrow(ForbiddenError);
    expect(() => assign(10, { season: given() })).toThrow(NotFoundError);
  });

  it('the provider: known, active, supplying that fertilizer, not twice on the same line', () => {
    expect(() => assign(10, { provider: null })).toThrow(NotFoundError);
    expect(() => assign(10, { provider: { ...provider, active: false } })).toThrow(
      BusinessRuleError,
    );
    expect(() => assign(10, { provider: { ...provider, fertilizerIds: [2] } })).toThrow(
      'Ce fournisseur ne fournit pas cet intrant',
    );
    expect(() => assign(10, { fertilizerId: 6 })).toThrow(
      'Cet intrant ne figure pas dans la saison',
    );
    const first = stateAfter(assignedEvent(assign(10)));
    expect(() => assign(10, { assignments: [first] })).toThrow(ConflictError);
  });
});

describe('banProvider', () => {
  const assigned = assignedEvent(assign(600));
  const state = stateAfter(assigned);
  const heldWallet: WalletState = {
    ...wallet(1_000_000),
    held: 210_000,
    availableBalance: 790_000,
    holds: holdBook({
      'input-assignment-11': {
        amount: 210_000,
        status: 'ACTIVE',
        remaining: 140_000,
        settlements: {},
      },
    }),
  };

  it('releases what the hold keeps and marks the assignment BANNED', () => {
    const d = banProvider(
      { assignment: state, wallet: heldWallet },
      { actor: AGGREGATOR, now: NOW },
    );
    expect(d.writes.map((w) => w.streamId)).toEqual(['seasoninput-11', 'wallet-w-agg']);
    expect(d.writes[0]!.events[0]).toMatchObject({
      type: 'InputProviderBanned',
      data: { assignmentId: 11, released: 140_000 },
    });
    expect(d.writes[1]!.events[0]).toMatchObject({ type: 'HoldReleased' });
    expect(d.result).toMatchObject({ status: 'BANNED', released: 140_000 });
  });

  it('twice is a 409; another industrial 403; the super admin may', () => {
    const banned = evolveAssignment(state, {
      type: 'InputProviderBanned',
      data: {
        assignmentId: 11,
        bannedBy: AGGREGATOR.userId,
        bannedAt: NOW.toISOString(),
        released: 0,
      },
    });
    expect(() =>
      banProvider({ assignment: banned, wallet: heldWallet }, { actor: AGGREGATOR, now: NOW }),
    ).toThrow(ConflictError);
    expect(() =>
      banProvider({ assignment: state, wallet: heldWallet }, { actor: OTHER_AGGREGATOR, now: NOW }),
    ).toThrow(ForbiddenError);
    expect(
      banProvider({ assignment: state, wallet: heldWallet }, { actor: ADMIN, now: NOW }).result
        .status,
    ).toBe('BANNED');
    expect(() =>
      banProvider(
        { assignment: initialAssignmentState(), wallet: heldWallet },
        { actor: AGGREGATOR, now: NOW },
      ),
    ).toThrow(NotFoundError);
  });

  it('a fully paid hold releases nothing', () => {
    const paid: WalletState = {
      ...heldWallet,
      holds: holdBook({
        'input-assignment-11': {
          amount: 210_000,
          status: 'CAPTURED',
          remaining: 0,
          settlements: {},
        },
      }),
    };
    const d = banProvider({ assignment: state, wallet: paid }, { actor: AGGREGATOR, now: NOW });
    expect(d.writes.map((w) => w.streamId)).toEqual(['seasoninput-11']);
    expect(d.result.released).toBe(0);
  });
});
