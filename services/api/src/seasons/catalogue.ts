import { defineEvent, type EventDefinition, type StreamType } from '@filiere/event-store';
import {
  evolveSeason,
  initialSeasonState,
  seasonEventSchemas,
  type SeasonEvent,
  type SeasonState,
} from './domain/index.js';

/** The seasons' event types, for the product's catalogue. */
export const seasonEvents: EventDefinition<string, any>[] = Object.entries(seasonEventSchemas).map(
  ([type, schema]) => defineEvent({ type, version: 1, schema }),
);

/** Stream `season-<id>`: the season, its pricing and its links to industrials. */
export const seasonStream: StreamType<SeasonState> = {
  category: 'season',
  initialState: initialSeasonState,
  evolve: (state, event) => evolveSeason(state, event as unknown as SeasonEvent),
};
