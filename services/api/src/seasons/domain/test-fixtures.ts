import { evolveSeason, initialSeasonState, type SeasonState } from './season-stream.js';
import type { SeasonEvent } from './events.js';
import type { Decision, FertilizerCatalogue, SeasonActor, SeasonInput } from './season.js';

export const ADMIN: SeasonActor = {
  userId: '00000000-0000-4000-8000-000000000001',
  role: 'ROLE_SUPER_ADMIN',
};
export const AGGREGATOR: SeasonActor = {
  userId: '00000000-0000-4000-8000-0000000000a1',
  role: 'ROLE_INDUSTRIAL',
};
export const OTHER_AGGREGATOR: SeasonActor = {
  userId: '00000000-0000-4000-8000-0000000000a2',
  role: 'ROLE_INDUSTRIAL',
};

/** Fertilizers 1–2 are of type 1 (Engrais), 6 of type 2 (Rejets), as the actors' seed. */
export const CATALOGUE: FertilizerCatalogue = new Map([
  [1, { typeId: 1 }],
  [2, { typeId: 1 }],
  [6, { typeId: 2 }],
]);

export const SEASON_INPUT: SeasonInput = {
  label: 'Saison 2026–2027',
  from: '2026-12-01',
  to: '2027-11-30',
  unitProductAmount: 120,
  productionIndex: 50,
  quotity: 10,
  fertilizers: [
    { fertilizerId: 1, typeId: 1, amount: 350, index: 300 },
    { fertilizerId: 2, typeId: 1, amount: 400, index: 150 },
  ],
};

export const TODAY = '2026-11-25';
export const NOW = new Date('2026-11-25T10:00:00.000Z');

/** The state after `events` (given). */
export const given = (...events: SeasonEvent[]): SeasonState =>
  events.reduce(evolveSeason, initialSeasonState());

/** The events a decision writes (then). */
export const eventsOf = (d: Decision<unknown>): SeasonEvent[] => d.writes.flatMap((w) => w.events);
