import { reconciliationEvent, type DayFigures, type ReconciliationEvent } from './events.js';
import type { Source } from './lines.js';

/** The folded state of `recday-<source>-<day>`: the figures of its last close. */
export interface DayState {
  figures: DayFigures | null;
}

export const dayStreamId = (source: Source, day: string): string => `recday-${source}-${day}`;

export const dayStream = {
  category: 'recday',
  initialState: (): DayState => ({ figures: null }),
  evolve: (state: DayState, event: ReconciliationEvent): DayState =>
    event.type === 'DayReconciled' ? { figures: event.data.figures } : state,
};

const same = (a: DayFigures, b: DayFigures) =>
  (Object.keys(a) as (keyof DayFigures)[]).every((k) => a[k] === b[k]);

/** Closes the day with its figures; a run that finds the same figures appends nothing. */
export function closeDay(
  state: DayState,
  command: { source: Source; day: string; figures: DayFigures; at: string },
): ReconciliationEvent[] {
  if (state.figures !== null && same(state.figures, command.figures)) return [];
  return [
    reconciliationEvent('DayReconciled', {
      source: command.source,
      day: command.day,
      figures: command.figures,
      reconciledAt: command.at,
    }),
  ];
}
