import { describe, expect, it } from 'vitest';
import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { seasonEvent } from './events.js';
import {
  acceptInvitation,
  activateSeason,
  archiveSeason,
  attachIndustrial,
  createSeason,
  detachIndustrial,
  editSeason,
  expireInvitation,
  previewAmounts,
  type IndustrialFacts,
} from './season.js';
import {
  ADMIN,
  AGGREGATOR,
  CATALOGUE,
  NOW,
  OTHER_AGGREGATOR,
  SEASON_INPUT,
  TODAY,
  eventsOf,
  given,
} from './test-fixtures.js';

const created = seasonEvent('SeasonCreated', {
  seasonId: 7,
  ...SEASON_INPUT,
  createdBy: ADMIN.userId,
});
const industrial: IndustrialFacts = {
  userId: AGGREGATOR.userId,
  role: 'ROLE_INDUSTRIAL',
  status: 'ACTIVE',
};
const attached = seasonEvent('IndustrialAttached', {
  seasonId: 7,
  linkId: 3,
  userId: AGGREGATOR.userId,
  quantity: 100_000,
  productionAmount: 12_000_000,
  fertilizerAmount: 330_000,
  minSupplyAmount: 1_530_000,
  attachedAt: NOW.toISOString(),
  expiresAt: '2026-12-02T10:00:00.000Z',
  attachedBy: ADMIN.userId,
});
const accepted = seasonEvent('IndustrialAccepted', {
  seasonId: 7,
  linkId: 3,
  userId: AGGREGATOR.userId,
  quantity: 100_000,
  productionAmount: 12_000_000,
  fertilizerAmount: 330_000,
  minSupplyAmount: 1_530_000,
  acceptedAt: NOW.toISOString(),
});
const attach = (
  state = given(created),
  quantity = 100_000,
  facts: Partial<Parameters<typeof attachIndustrial>[2]> = {},
) =>
  attachIndustrial(
    state,
    { industrialId: AGGREGATOR.userId, quantity },
    {
      actor: ADMIN,
      industrial,
      newLinkId: 3,
      now: NOW,
      invitationDays: 7,
      ...facts,
    },
  );
const fieldsOf = (fn: () => unknown): Record<string, string> => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).data.fields as Record<string, string>;
  }
  throw new Error('expected a ValidationError');
};

describe('createSeason', () => {
  it('given nothing, when the super admin creates it, then SeasonCreated on season-<id>', () => {
    const d = createSeason(given(), SEASON_INPUT, {
      actor: ADMIN,
      seasonId: 7,
      today: TODAY,
      catalogue: CATALOGUE,
    });
    expect(d.writes.map((w) => w.streamId)).toEqual(['season-7']);
    expect(eventsOf(d)).toEqual([created]);
    expect(d.result).toMatchObject({ seasonId: 7, isActive: false, label: 'Saison 2026–2027' });
  });

  it('refuses anyone but the super admin (403)', () => {
    expect(() =>
      createSeason(given(), SEASON_INPUT, {
        actor: AGGREGATOR,
        seasonId: 7,
        today: TODAY,
        catalogue: CATALOGUE,
      }),
    ).toThrow(ForbiddenError);
  });

  it('§5: name, dates (start ≥ today, end ≥ start), price ≥ 1, yield ≥ 1, quotity 0–100', () => {
    const fields = fieldsOf(() =>
      createSeason(
        given(),
        {
          ...SEASON_INPUT,
          label: '  ',
          from: '2026-11-24',
          to: '2026-11-01',
          unitProductAmount: 0,
          productionIndex: 0.5,
          quotity: 101,
        },
        { actor: ADMIN, seasonId: 7, today: TODAY, catalogue: CATALOGUE },
      ),
    );
    expect(fields).toEqual({
      label: 'Ce champ est obligatoire',
      from: 'La date de début ne peut pas être antérieure à aujourd’hui',
      to: 'La date de fin doit être postérieure ou égale à la date de début',
      unitProductAmount: expect.stringContaining('supérieure ou égale à 1'),
      productionIndex: expect.stringContaining('supérieure ou égale à 1'),
      quotity: expect.stringContaining('entre 0 et 100'),
    });
  });

  it('§5 fertilizer lines: known fertilizer of its type, amount ≥ 1, dose ≥ 1, not twice', () => {
    const fields = fieldsOf(() =>
      createSeason(
        given(),
        {
          ...SEASON_INPUT,
          fertilizers: [
            { fertilizerId: 99, typeId: 1, amount: 1, index: 1 },
            { fertilizerId: 6, typeId: 1, amount: 0, index: 0 },
            { fertilizerId: 1, typeId: 1, amount: 10, index: 1.234 },
            { fertilizerId: 1, typeId: 1, amount: 10, index: 2 },
          ],
        },
        { actor: ADMIN, seasonId: 7, today: TODAY, catalogue: CATALOGUE },
      ),
    );
    expect(fields).toEqual({
      'fertilizers.0.fertilizerId': 'Intrant introuvable dans le catalogue',
      'fertilizers.1.typeId': 'Cet intrant n’est pas de ce type d’engrais',
      'fertilizers.1.amount': expect.stringContaining('supérieure ou égale à 1'),
      'fertilizers.1.index': expect.stringContaining('supérieure ou égale à 1'),
      'fertilizers.2.index': 'Deux décimales au plus',
      'fertilizers.3.fertilizerId': 'Cet intrant figure déjà dans la saison',
    });
  });

  it('start date today is allowed (the minimum is today, in Benin)', () => {
    const d = createSeason(
      given(),
      { ...SEASON_INPUT, from: TODAY },
      { actor: ADMIN, seasonId: 7, today: TODAY, catalogue: CATALOGUE },
    );
    expect(d.writes).toHaveLength(1);
  });
});

describe('editSeason', () => {
  it('given a pending invitation, when the price changes, then the invitation is repriced in SeasonEdited', () => {
    const d = editSeason(
      given(created, attached),
      { ...SEASON_INPUT, unitProductAmount: 130 },
      { actor: ADMIN, today: TODAY, catalogue: CATALOGUE },
    );
    const [event] = eventsOf(d);
    expect(event).toMatchObject({
      type: 'SeasonEdited',
      data: {
        unitProductAmount: 130,
        repriced: [
          {
            linkId: 3,
            userId: AGGREGATOR.userId,
            quantity: 100_000,
            productionAmount: 13_000_000,
            fertilizerAmount: 330_000,
            minSupplyAmount: 330_000 + 1_300_000,
          },
        ],
      },
    });
  });

  it('a past start date kept as it was is not refused (only a changed start date is checked)', () => {
    const past = seasonEvent('SeasonCreated', { ...created.data, from: '2026-11-01' });
    const d = editSeason(
      given(past),
      { ...SEASON_INPUT, from: '2026-11-01', label: 'Renommée' },
      { actor: ADMIN, today: TODAY, catalogue: CATALOGUE },
    );
    expect(d.result.label).toBe('Renommée');
  });

  it('once an industrial accepted, the pricing is locked (409) but the name may change', () => {
    const state = given(created, attached, accepted);
    expect(() =>
      editSeason(
        state,
        { ...SEASON_INPUT, quotity: 12 },
        { actor: ADMIN, today: TODAY, catalogue: CATALOGUE },
      ),
    ).toThrow(ConflictError);
    const d = editSeason(
      state,
      { ...SEASON_INPUT, label: 'Campagne 2026' },
      { actor: ADMIN, today: TODAY, catalogue: CATALOGUE },
    );
    expect(eventsOf(d)[0]).toMatchObject({
      type: 'SeasonEdited',
      data: { label: 'Campagne 2026', repriced: [] },
    });
  });

  it('an unknown season is a 404, an archived one a 409', () => {
    expect(() =>
      editSeason(given(), SEASON_INPUT, { actor: ADMIN, today: TODAY, catalogue: CATALOGUE }),
    ).toThrow(NotFoundError);
    const archived = given(
      created,
      seasonEvent('SeasonArchived', { seasonId: 7, archivedBy: ADMIN.userId }),
    );
    expect(() =>
      editSeason(archived, SEASON_INPUT, { actor: ADMIN, today: TODAY, catalogue: CATALOGUE }),
    ).toThrow(ConflictError);
  });
});

describe('archive and activate', () => {
  it('archives once, then refuses (409)', () => {
    const d = archiveSeason(given(created), ADMIN);
    expect(eventsOf(d).map((e) => e.type)).toEqual(['SeasonArchived']);
    expect(() => archiveSeason(given(created, ...eventsOf(d)), ADMIN)).toThrow(ConflictError);
  });

  it('activates once, then 409 "déjà active"', () => {
    const d = activateSeason(given(created), ADMIN);
    expect(eventsOf(d).map((e) => e.type)).toEqual(['SeasonActivated']);
    expect(() => activateSeason(given(created, ...eventsOf(d)), ADMIN)).toThrow(
      'La saison est déjà active',
    );
  });

  it('an industrial can neither archive nor activate (403)', () => {
    expect(() => archiveSeason(given(created), AGGREGATOR)).toThrow(ForbiddenError);
    expect(() => activateSeason(given(created), AGGREGATOR)).toThrow(ForbiddenError);
  });
});

describe('attachIndustrial', () => {
  it('invites the industrial (PENDING) with the computed amounts, expiring 7 days later', () => {
    const d = attach();
    expect(eventsOf(d)).toEqual([attached]);
    expect(d.result).toEqual({
      linkId: 3,
      seasonId: 7,
      userId: AGGREGATOR.userId,
      status: 'PENDING',
      quantity: 100_000,
      productionAmount: 12_000_000,
      fertilizerAmount: 330_000,
      minSupplyAmount: 1_530_000,
      expiresAt: '2026-12-02T10:00:00.000Z',
    });
  });

  it('the invitation delay is configurable', () => {
    expect(attach(given(created), 100_000, { invitationDays: 2 }).result.expiresAt).toBe(
      '2026-11-27T10:00:00.000Z',
    );
  });

  it('re-inviting a pending or expired industrial keeps its link id, with the new quantity and expiry', () => {
    const expired = seasonEvent('InvitationExpired', {
      seasonId: 7,
      linkId: 3,
      userId: AGGREGATOR.userId,
      expiredAt: attached.data.expiresAt,
    });
    const d = attach(given(created, attached, expired), 50_000, { newLinkId: 99 });
    expect(d.result).toMatchObject({
      linkId: 3,
      quantity: 50_000,
      status: 'PENDING',
      productionAmount: 6_000_000,
    });
  });

  it('refuses an industrial that already accepted (409)', () => {
    expect(() => attach(given(created, attached, accepted))).toThrow(ConflictError);
  });

  it('refuses a quantity below 1 kg or not whole (400)', () => {
    expect(() => attach(given(created), 0)).toThrow(ValidationError);
    expect(() => attach(given(created), 1.5)).toThrow(ValidationError);
  });

  it('refuses an unknown user (404), a non-industrial or an inactive one (422)', () => {
    expect(() => attach(given(created), 1, { industrial: null })).toThrow(NotFoundError);
    expect(() =>
      attach(given(created), 1, { industrial: { ...industrial, role: 'ROLE_GROWER' } }),
    ).toThrow('Cet utilisateur n’est pas un agrégateur');
    expect(() =>
      attach(given(created), 1, { industrial: { ...industrial, status: 'INACTIVE' } }),
    ).toThrow(BusinessRuleError);
  });

  it('refuses once the season has ended (422)', () => {
    expect(() => attach(given(created), 1, { now: new Date('2027-12-01T10:00:00Z') })).toThrow(
      'La saison est terminée : on ne peut plus y ajouter d’agrégateur',
    );
  });

  it('preview gives the same amounts without writing', () => {
    expect(previewAmounts(given(created), 100_000)).toEqual({
      quantity: 100_000,
      productionAmount: 12_000_000,
      fertilizerAmount: 330_000,
      minSupplyAmount: 1_530_000,
    });
  });
});

describe('acceptInvitation', () => {
  it('given a pending invitation, when its industrial accepts before expiresAt, then CONFIRMED', () => {
    const d = acceptInvitation(given(created, attached), {}, { actor: AGGREGATOR, now: NOW });
    expect(eventsOf(d)).toEqual([accepted]);
    expect(d.result.status).toBe('CONFIRMED');
  });

  it('accepts with another quantity (recomputed amounts)', () => {
    const d = acceptInvitation(
      given(created, attached),
      { quantity: 1 },
      { actor: AGGREGATOR, now: NOW },
    );
    expect(d.result).toMatchObject({
      quantity: 1,
      productionAmount: 120,
      fertilizerAmount: 4,
      minSupplyAmount: 16,
    });
  });

  it('at or past expiresAt: 422 naming the expiry date, nothing written', () => {
    const at = new Date(attached.data.expiresAt);
    expect(() =>
      acceptInvitation(given(created, attached), {}, { actor: AGGREGATOR, now: at }),
    ).toThrow('Cette invitation a expiré le 02/12/2026 à 11:00 : elle ne peut plus être acceptée');
  });

  it('a CANCELED invitation cannot be accepted (422), nor an accepted one again (422)', () => {
    const expired = seasonEvent('InvitationExpired', {
      seasonId: 7,
      linkId: 3,
      userId: AGGREGATOR.userId,
      expiredAt: attached.data.expiresAt,
    });
    expect(() =>
      acceptInvitation(given(created, attached, expired), {}, { actor: AGGREGATOR, now: NOW }),
    ).toThrow(BusinessRuleError);
    expect(() =>
      acceptInvitation(given(created, attached, accepted), {}, { actor: AGGREGATOR, now: NOW }),
    ).toThrow('Vous avez déjà accepté cette saison');
  });

  it('another industrial is not invited (404); an archived season cannot be accepted (422)', () => {
    expect(() =>
      acceptInvitation(given(created, attached), {}, { actor: OTHER_AGGREGATOR, now: NOW }),
    ).toThrow(NotFoundError);
    const archived = seasonEvent('SeasonArchived', { seasonId: 7, archivedBy: ADMIN.userId });
    expect(() =>
      acceptInvitation(given(created, attached, archived), {}, { actor: AGGREGATOR, now: NOW }),
    ).toThrow(BusinessRuleError);
  });
});

describe('expireInvitation', () => {
  const after = new Date('2026-12-02T10:00:00.000Z');

  it('given a pending invitation past expiresAt, then InvitationExpired (CANCELED)', () => {
    const d = expireInvitation(
      given(created, attached),
      { userId: AGGREGATOR.userId },
      { now: after },
    );
    expect(eventsOf(d)).toEqual([
      seasonEvent('InvitationExpired', {
        seasonId: 7,
        linkId: 3,
        userId: AGGREGATOR.userId,
        expiredAt: attached.data.expiresAt,
      }),
    ]);
    expect(given(created, attached, ...eventsOf(d)).links[AGGREGATOR.userId]!.status).toBe(
      'CANCELED',
    );
  });

  it('is idempotent: before expiry, once expired, once accepted or detached it writes nothing', () => {
    const id = { userId: AGGREGATOR.userId };
    expect(expireInvitation(given(created, attached), id, { now: NOW }).writes).toEqual([]);
    const once = expireInvitation(given(created, attached), id, { now: after });
    expect(
      expireInvitation(given(created, attached, ...eventsOf(once)), id, { now: after }).writes,
    ).toEqual([]);
    expect(expireInvitation(given(created, attached, accepted), id, { now: after }).writes).toEqual(
      [],
    );
    expect(expireInvitation(given(created), id, { now: after }).writes).toEqual([]);
  });

  it('a re-invitation with a later expiry is not expired by the old date', () => {
    const again = seasonEvent('IndustrialAttached', {
      ...attached.data,
      expiresAt: '2026-12-09T10:00:00.000Z',
    });
    expect(
      expireInvitation(
        given(created, attached, again),
        { userId: AGGREGATOR.userId },
        { now: after },
      ).writes,
    ).toEqual([]);
  });
});

describe('detachIndustrial', () => {
  it('removes a pending link; an accepted one stays (409)', () => {
    const d = detachIndustrial(given(created, attached), { linkId: 3 }, ADMIN);
    expect(eventsOf(d).map((e) => e.type)).toEqual(['IndustrialDetached']);
    expect(given(created, attached, ...eventsOf(d)).links).toEqual({});
    expect(() =>
      detachIndustrial(given(created, attached, accepted), { linkId: 3 }, ADMIN),
    ).toThrow(ConflictError);
    expect(() => detachIndustrial(given(created), { linkId: 3 }, ADMIN)).toThrow(NotFoundError);
  });
});
