import { describe, expect, it } from 'vitest';
import { BusinessRuleError, ConflictError, ForbiddenError } from '@filiere/platform';
import { evolveDebt, initialDebtState } from '../../../contracts/domain/index.js';
import {
  evolveWallet,
  initialWalletState,
  walletEvent,
  holdBook,
  type WalletState,
} from '../../../wallet/index.js';
import type { AssignmentState } from '../../inputs/index.js';
import {
  evolveRequest,
  initialRequestState,
  requestEvent,
  type RequestState,
} from '../../requests/index.js';
import { deliverInput, payingAssignment } from './delivery.js';

const INDUSTRIAL = { userId: '00000000-0000-4000-8000-0000000000a1', role: 'ROLE_INDUSTRIAL' };
const PROVIDER = { userId: '00000000-0000-4000-8000-0000000000b1', role: 'ROLE_INPUT_PROVIDER' };
const OTHER = { userId: '00000000-0000-4000-8000-0000000000b2', role: 'ROLE_INPUT_PROVIDER' };
const GROWER = '00000000-0000-4000-8000-0000000000c1';
const NOW = new Date('2026-12-05T10:00:00.000Z');

const assignment = (id: number, provider = PROVIDER.userId): AssignmentState => ({
  exists: true,
  assignmentId: id,
  seasonId: 7,
  linkId: 3,
  industrialUserId: INDUSTRIAL.userId,
  providerUserId: provider,
  fertilizerId: 1,
  typeId: 1,
  quantityKg: 400,
  unitAmount: 350,
  amount: 140_000,
  holdId: `input-assignment-${id}`,
  status: 'ACTIVE',
  released: 0,
});

const wallet = (events: Parameters<typeof evolveWallet>[1][]): WalletState =>
  events.reduce(evolveWallet, initialWalletState());
const industrialWallet = wallet([
  walletEvent('WalletOpened', { walletId: 'w-ind', ownerUserId: INDUSTRIAL.userId }),
]);

function requestState(delivered = false): RequestState {
  const events = [
    requestEvent('GrowerRequestFiled', {
      requestId: 5,
      reference: 'DEM-000005',
      type: 'INPUT',
      seasonId: 7,
      linkId: 3,
      industrialUserId: INDUSTRIAL.userId,
      sfdUserId: null,
      growerId: GROWER,
      growerUserId: GROWER,
      fertilizerId: 1,
      quantityKg: 20,
      amount: 7_000,
      filedBy: GROWER,
      filedAt: NOW.toISOString(),
    }),
    requestEvent('GrowerRequestAccepted', {
      requestId: 5,
      acceptedBy: INDUSTRIAL.userId,
      acceptedAt: NOW.toISOString(),
      code: 'AGW_123456',
      debtId: null,
      transferId: null,
    }),
    ...(delivered
      ? [
          requestEvent('InputDelivered', {
            requestId: 5,
            assignmentId: 11,
            providerUserId: PROVIDER.userId,
            amount: 7_000,
            debtId: 'input-advance-5',
            deliveredBy: PROVIDER.userId,
            deliveredAt: NOW.toISOString(),
          }),
        ]
      : []),
  ];
  return events.reduce(evolveRequest, initialRequestState());
}

// The industrial's wallet with 200 000 F and the assignment's hold of 140 000 F.
const funded: WalletState = {
  ...industrialWallet,
  balance: 200_000,
  held: 140_000,
  availableBalance: 60_000,
  holds: holdBook({
    'input-assignment-11': {
      amount: 140_000,
      status: 'ACTIVE',
      remaining: 140_000,
      settlements: {},
    },
  }),
};

const deliver = (
  request: RequestState,
  actor = PROVIDER,
  wal = funded,
  a = assignment(11),
  code = 'AGW_123456',
) =>
  deliverInput(
    { request, wallet: wal, providerWallet: initialWalletState(), debt: initialDebtState() },
    { actor, code, assignment: a, providerWalletId: 'w-prov', now: NOW },
  );

describe('deliverInput', () => {
  it('given an accepted INPUT request, when its provider confirms, then InputDelivered + the hold paying the provider (its wallet opened) + the grower’s debt, in one decision', () => {
    const d = deliver(requestState());
    expect(d.writes.map((w) => w.streamId)).toEqual([
      'seasonrequest-5',
      'wallet-w-ind',
      'wallet-w-prov',
      'debt-input-advance-5',
    ]);
    expect(d.writes[0]!.events[0]).toMatchObject({
      type: 'InputDelivered',
      data: { requestId: 5, assignmentId: 11, providerUserId: PROVIDER.userId, amount: 7_000 },
    });
    expect(d.writes[2]!.events[0]).toMatchObject({ type: 'WalletOpened' });
    expect(d.writes[3]!.events[0]).toMatchObject({
      type: 'DebtOpened',
      data: {
        kind: 'AVANCE_SUR_INTRANT',
        principal: 7_000,
        debtorGrowerId: GROWER,
        creditorUserId: INDUSTRIAL.userId,
      },
    });
    const after = (d.writes[1]!.events as Parameters<typeof evolveWallet>[1][]).reduce(
      evolveWallet,
      funded,
    );
    expect(after.holds.get('input-assignment-11')).toMatchObject({
      status: 'ACTIVE',
      remaining: 133_000,
    });
    expect(after.balance).toBe(193_000);
    expect(after.availableBalance).toBe(60_000);
    expect(
      (d.writes[3]!.events as Parameters<typeof evolveDebt>[1][]).reduce(
        evolveDebt,
        initialDebtState(),
      ),
    ).toMatchObject({
      exists: true,
    });
  });

  it('the grower’s code is the proof: a wrong or empty one is a 422 INCORRECT_CODE; case and spaces do not matter', () => {
    for (const code of ['AGW_654321', '', 'AGW_12345', 'nimportequoi']) {
      expect(() => deliver(requestState(), PROVIDER, funded, assignment(11), code)).toThrow(
        expect.objectContaining({
          statusCode: 422,
          message: 'Le code du producteur que vous avez saisi est incorrect',
          data: { reason: 'INCORRECT_CODE' },
        }),
      );
    }
    const d = deliver(requestState(), PROVIDER, funded, assignment(11), ' agw_123456 ');
    expect(d.result.status).toBe('DONE');
  });

  it('reach and the request’s state are checked before the code: a wrong code says nothing more', () => {
    expect(() => deliver(requestState(), OTHER, funded, assignment(11), 'AGW_000000')).toThrow(
      ForbiddenError,
    );
    expect(() =>
      deliver(requestState(true), PROVIDER, funded, assignment(11), 'AGW_000000'),
    ).toThrow(ConflictError);
  });

  it('a second confirmation of a DONE request is a 409 and writes nothing (exactly once)', () => {
    expect(() => deliver(requestState(true))).toThrow(ConflictError);
    expect(() => deliver(requestState(true))).toThrow('Ces intrants ont déjà été livrés');
  });

  it('reach: another provider 403, another industrial 403; a released (banned) hold 422; a short hold 422', () => {
    expect(() => deliver(requestState(), OTHER)).toThrow(ForbiddenError);
    expect(() =>
      deliver(requestState(), {
        userId: '00000000-0000-4000-8000-0000000000a2',
        role: 'ROLE_INDUSTRIAL',
      }),
    ).toThrow(ForbiddenError);
    const released = {
      ...funded,
      holds: holdBook({
        'input-assignment-11': {
          ...funded.holds.get('input-assignment-11')!,
          status: 'RELEASED' as const,
          remaining: 0,
        },
      }),
    };
    expect(() => deliver(requestState(), PROVIDER, released)).toThrow(BusinessRuleError);
    const short = {
      ...funded,
      holds: holdBook({
        'input-assignment-11': { ...funded.holds.get('input-assignment-11')!, remaining: 6_999 },
      }),
    };
    expect(() => deliver(requestState(), PROVIDER, short)).toThrow(BusinessRuleError);
  });

  it('which assignment pays: the provider its own; the industrial the one whose hold keeps the most', () => {
    const mine = assignment(11);
    const other = assignment(12, OTHER.userId);
    const wal: WalletState = {
      ...funded,
      holds: holdBook({
        'input-assignment-11': {
          amount: 140_000,
          status: 'ACTIVE',
          remaining: 10_000,
          settlements: {},
        },
        'input-assignment-12': {
          amount: 140_000,
          status: 'ACTIVE',
          remaining: 90_000,
          settlements: {},
        },
      }),
    };
    const req = { linkId: 3, fertilizerId: 1 };
    expect(payingAssignment(req, PROVIDER, [mine, other], wal)).toBe(mine);
    expect(payingAssignment(req, INDUSTRIAL, [mine, other], wal)).toBe(other);
    expect(
      payingAssignment({ linkId: 3, fertilizerId: 2 }, INDUSTRIAL, [mine, other], wal),
    ).toBeNull();
  });
});
