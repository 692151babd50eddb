import { describe, expect, it } from 'vitest';
import type { DebtState } from '../../../contracts/index.js';
import { initialWalletState, type WalletState } from '../../../wallet/index.js';
import {
  acceptRequest,
  evolveRequest,
  fileRequest,
  initialRequestState,
  rejectRequest,
  requestStreamId,
  type FileRequestFacts,
  type FileRequestInput,
  type RequestEvent,
  type RequestState,
} from './index.js';

const GROWER_USER = '11111111-1111-4111-8111-111111111111';
const GROWER = '22222222-2222-4222-8222-222222222222';
const COOP_USER = '33333333-3333-4333-8333-333333333333';
const INDUSTRIAL = '44444444-4444-4444-8444-444444444444';
const SFD = '55555555-5555-4555-8555-555555555555';
const OTHER = '66666666-6666-4666-8666-666666666666';
const NOW = new Date('2026-12-10T09:00:00.000Z');

const grower = { userId: GROWER_USER, role: 'ROLE_GROWER' };
const coop = { userId: COOP_USER, role: 'ROLE_FARMER_ORGANIZATION' };
const industrial = { userId: INDUSTRIAL, role: 'ROLE_INDUSTRIAL' };
const sfd = { userId: SFD, role: 'ROLE_SFD' };

function facts(over: Partial<FileRequestFacts> = {}): FileRequestFacts {
  return {
    requestId: 123,
    actor: grower,
    now: NOW,
    today: '2026-12-10',
    grower: { growerId: GROWER, userId: GROWER_USER, active: true, cooperativeUserId: COOP_USER },
    season: {
      exists: true,
      archived: false,
      isActive: true,
      to: '2027-11-30',
      lines: new Map([
        [1, { amount: 350 }],
        [2, { amount: 300 }],
      ]),
    },
    link: { linkId: 7, industrialUserId: INDUSTRIAL },
    sfd: { userId: SFD, role: 'ROLE_SFD', active: true },
    ...over,
  };
}

const input = (over: Partial<FileRequestInput> = {}): FileRequestInput => ({
  type: 'INPUT',
  seasonId: 1,
  growerId: GROWER,
  fertilizerId: 1,
  quantityKg: 40,
  ...over,
});

/** Folds a decision's events for the request's stream onto the state. */
function given(...inputs: [FileRequestInput, Partial<FileRequestFacts>?][]): RequestState {
  let state = initialRequestState();
  for (const [i, f] of inputs) {
    const d = fileRequest(state, i, facts(f));
    for (const e of d.writes[0]!.events) state = evolveRequest(state, e as RequestEvent);
  }
  return state;
}

const fold = (state: RequestState, writes: { streamId: string; events: unknown[] }[]) =>
  writes
    .filter((w) => w.streamId === requestStreamId(state.requestId!))
    .flatMap((w) => w.events as RequestEvent[])
    .reduce(evolveRequest, state);

const wallet = (walletId: string, available: number): WalletState => ({
  ...initialWalletState(),
  opened: true,
  walletId,
  ownerUserId: walletId,
  balance: available + 1_000,
  held: 1_000,
  availableBalance: available,
});

const noDebt: DebtState = {
  exists: false,
  debtId: null,
  kind: null,
  creditorUserId: '',
  debtorGrowerId: '',
  principal: 0,
  recovered: 0,
  openedAt: '',
  recoveries: {},
};

const recipient = {
  userId: GROWER_USER,
  role: 'ROLE_GROWER',
  clusterId: 'cluster-a',
  status: 'ACTIVE' as const,
};

const moneyFacts = (actor = industrial) => ({
  actor,
  now: NOW,
  payerWalletId: 'w-payer',
  growerWalletId: 'w-grower',
  recipient,
});

describe('filing a request', () => {
  it('INPUT: amount = kg × aᵢ, addressed to the link’s industrial, reference DEM-000123', () => {
    const d = fileRequest(initialRequestState(), input(), facts());
    expect(d.result).toMatchObject({
      requestId: 123,
      reference: 'DEM-000123',
      status: 'CREATED',
      amount: 14_000,
      industrialUserId: INDUSTRIAL,
    });
    expect(d.writes).toHaveLength(1);
    expect(d.writes[0]!.streamId).toBe('seasonrequest-123');
    expect(d.writes[0]!.events[0]).toMatchObject({
      type: 'GrowerRequestFiled',
      data: { linkId: 7, fertilizerId: 1, quantityKg: 40, filedBy: GROWER_USER },
    });
  });

  it('the cooperative files for its grower; another cooperative or grower is refused (403)', () => {
    expect(fileRequest(initialRequestState(), input(), facts({ actor: coop })).result.status).toBe(
      'CREATED',
    );
    expect(() =>
      fileRequest(
        initialRequestState(),
        input(),
        facts({ actor: { userId: OTHER, role: 'ROLE_FARMER_ORGANIZATION' } }),
      ),
    ).toThrow(/coopérative/);
    expect(() =>
      fileRequest(
        initialRequestState(),
        input(),
        facts({ actor: { userId: OTHER, role: 'ROLE_GROWER' } }),
      ),
    ).toThrow(/vous-même/);
    expect(() => fileRequest(initialRequestState(), input(), facts({ actor: industrial }))).toThrow(
      /Seul un producteur/,
    );
  });

  it('refuses a fertilizer outside the season, a missing quantity, an inactive or ended season', () => {
    const fieldsOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { data: { fields?: Record<string, string> } }).data.fields;
      }
      throw new Error('no error');
    };
    expect(
      fieldsOf(() => fileRequest(initialRequestState(), input({ fertilizerId: 9 }), facts())),
    ).toEqual({ fertilizerId: 'Cet intrant ne fait pas partie de cette saison' });
    expect(
      fieldsOf(() => fileRequest(initialRequestState(), input({ quantityKg: undefined }), facts())),
    ).toEqual({ quantityKg: 'Ce champ est obligatoire' });
    expect(
      fieldsOf(() =>
        fileRequest(initialRequestState(), input({ type: 'PINEAPLE', quantityKg: 0 }), facts()),
      ),
    ).toEqual({
      amount: 'Ce champ est obligatoire',
      quantityKg: 'La quantité doit être un nombre entier supérieur ou égal à 1',
    });
    expect(() =>
      fileRequest(
        initialRequestState(),
        input(),
        facts({ season: { ...facts().season, isActive: false } }),
      ),
    ).toThrow('Cette saison n’est pas active');
    expect(() =>
      fileRequest(initialRequestState(), input(), facts({ today: '2027-12-01' })),
    ).toThrow('Cette saison est terminée');
  });

  it('INPUT and PINEAPLE need an industrial of the grower’s cluster who accepted the season (422)', () => {
    expect(() => fileRequest(initialRequestState(), input(), facts({ link: null }))).toThrow(
      /Aucun agrégateur de votre cluster/,
    );
    // SOCIAL goes to the SFD: no industrial needed.
    const d = fileRequest(
      initialRequestState(),
      input({ type: 'SOCIAL', fertilizerId: undefined, amount: 50_000, sfdUserId: SFD }),
      facts({ link: null }),
    );
    expect(d.result).toMatchObject({ sfdUserId: SFD, industrialUserId: null, amount: 50_000 });
  });

  it('SOCIAL must name an active SFD', () => {
    const social = input({ type: 'SOCIAL', amount: 50_000, sfdUserId: OTHER });
    expect(() =>
      fileRequest(
        initialRequestState(),
        social,
        facts({ sfd: { userId: OTHER, role: 'ROLE_INDUSTRIAL', active: true } }),
      ),
    ).toThrow('Demande invalide');
    expect(() =>
      fileRequest(
        initialRequestState(),
        social,
        facts({ sfd: { userId: SFD, role: 'ROLE_SFD', active: false } }),
      ),
    ).toThrow('Le compte de ce SFD n’est pas actif');
  });
});

describe('accepting and rejecting', () => {
  it('INPUT: CREATED → CONFIRMED with its code and a delivery waiting (CREATED)', () => {
    const state = given([input()]);
    const d = acceptRequest(
      { request: state },
      { actor: industrial, now: NOW, code: 'AGW_004217', hasActiveProvider: true },
    );
    expect(d.writes).toHaveLength(1);
    const after = fold(state, d.writes);
    expect(after.status).toBe('CONFIRMED');
    expect(after.delivery).toEqual({ status: 'CREATED', code: 'AGW_004217' });
    expect(d.result.code).toBe('AGW_004217');
  });

  it('INPUT without an ACTIVE provider for the fertilizer: 422, nothing written', () => {
    expect(() =>
      acceptRequest(
        { request: given([input()]) },
        { actor: industrial, now: NOW, code: 'AGW_000001', hasActiveProvider: false },
      ),
    ).toThrow('Aucun fournisseur d’intrant n’est affecté pour cet engrais');
  });

  it('only the addressed industrial accepts; only CREATED requests; accepting is irreversible', () => {
    const state = given([input()]);
    const other = { userId: OTHER, role: 'ROLE_INDUSTRIAL' };
    expect(() =>
      acceptRequest({ request: state }, { actor: other, now: NOW, hasActiveProvider: true }),
    ).toThrow('Cette demande ne vous est pas adressée');
    const accepted = fold(
      state,
      acceptRequest(
        { request: state },
        { actor: industrial, now: NOW, code: 'AGW_000002', hasActiveProvider: true },
      ).writes,
    );
    expect(() =>
      acceptRequest(
        { request: accepted },
        { actor: industrial, now: NOW, code: 'AGW_000003', hasActiveProvider: true },
      ),
    ).toThrow('Cette demande a déjà été acceptée');
    expect(() =>
      rejectRequest(accepted, { reason: 'trop tard' }, { actor: industrial, now: NOW }),
    ).toThrow('Cette demande a déjà été acceptée');
  });

  it('PINEAPLE: one append moves the advance to the grower and opens AVANCE_SUR_ANANAS', () => {
    const state = given([
      input({ type: 'PINEAPLE', fertilizerId: undefined, amount: 150_000, quantityKg: 2_000 }),
    ]);
    const d = acceptRequest(
      {
        request: state,
        payer: wallet('w-payer', 200_000),
        grower: wallet('w-grower', 0),
        debt: noDebt,
      },
      moneyFacts(),
    );
    const streams = d.writes.map((w) => w.streamId);
    expect(streams).toEqual([
      'seasonrequest-123',
      'wallet-w-payer',
      'wallet-w-grower',
      'debt-request-123',
    ]);
    const sent = d.writes[1]!.events[0] as {
      type: string;
      data: { amount: number; postings: { amount: number }[] };
    };
    expect(sent.type).toBe('TransferSent');
    expect(sent.data.amount).toBe(150_000);
    expect(sent.data.postings.reduce((s, p) => s + p.amount, 0)).toBe(0);
    expect(d.writes[3]!.events[0]).toMatchObject({
      type: 'DebtOpened',
      data: {
        debtId: 'request-123',
        kind: 'AVANCE_SUR_ANANAS',
        creditorUserId: INDUSTRIAL,
        debtorGrowerId: GROWER,
        principal: 150_000,
      },
    });
    expect(fold(state, d.writes)).toMatchObject({ status: 'CONFIRMED', debtId: 'request-123' });
  });

  it('PINEAPLE to a grower whose wallet never held money: opened in the same append', () => {
    const state = given([
      input({ type: 'PINEAPLE', fertilizerId: undefined, amount: 10_000, quantityKg: 500 }),
    ]);
    const d = acceptRequest(
      {
        request: state,
        payer: wallet('w-payer', 20_000),
        grower: initialWalletState(),
        debt: noDebt,
      },
      moneyFacts(),
    );
    const growerWrite = d.writes.find((w) => w.streamId === 'wallet-w-grower')!;
    expect(growerWrite.events.map((e) => e.type)).toEqual(['WalletOpened', 'TransferReceived']);
  });

  it('PINEAPLE with a short available balance: 422 naming the missing amount', () => {
    const state = given([
      input({ type: 'PINEAPLE', fertilizerId: undefined, amount: 150_000, quantityKg: 2_000 }),
    ]);
    try {
      acceptRequest(
        {
          request: state,
          payer: wallet('w-payer', 100_000),
          grower: wallet('w-grower', 0),
          debt: noDebt,
        },
        moneyFacts(),
      );
      throw new Error('accepted');
    } catch (error) {
      expect((error as Error).message).toBe(
        'Solde disponible insuffisant : il manque 50 000 FCFA pour accepter la demande DEM-000123',
      );
      expect((error as { data: { missingAmount: number } }).data.missingAmount).toBe(50_000);
    }
  });

  it('SOCIAL: the SFD pays and the grower owes FINANCEMENT_SOCIAL; the industrial cannot accept it', () => {
    const state = given([
      input({ type: 'SOCIAL', fertilizerId: undefined, amount: 80_000, sfdUserId: SFD }),
    ]);
    const states = {
      request: state,
      payer: wallet('w-payer', 80_000),
      grower: wallet('w-grower', 0),
      debt: noDebt,
    };
    expect(() => acceptRequest(states, moneyFacts(industrial))).toThrow(
      'Cette demande ne vous est pas adressée',
    );
    const d = acceptRequest(states, moneyFacts(sfd));
    expect(d.writes[3]!.events[0]).toMatchObject({
      type: 'DebtOpened',
      data: { kind: 'FINANCEMENT_SOCIAL', creditorUserId: SFD, principal: 80_000 },
    });
  });

  it('reject: a reason is required; CREATED → REJECTED; then nothing more', () => {
    const state = given([input()]);
    expect(() => rejectRequest(state, { reason: '  ' }, { actor: industrial, now: NOW })).toThrow(
      'Le motif est obligatoire',
    );
    const d = rejectRequest(state, { reason: ' Stock épuisé ' }, { actor: industrial, now: NOW });
    expect(d.writes[0]!.events[0]).toMatchObject({
      type: 'GrowerRequestRejected',
      data: { reason: 'Stock épuisé' },
    });
    const rejected = fold(state, d.writes);
    expect(rejected.status).toBe('REJECTED');
    expect(() =>
      acceptRequest(
        { request: rejected },
        { actor: industrial, now: NOW, code: 'AGW_000009', hasActiveProvider: true },
      ),
    ).toThrow('Cette demande a déjà été rejetée');
  });
});
