import { beninDay } from '../benin-time.js';

/**
 * Dates for tests that go through the API's "not before today" rules. A literal future date
 * becomes a past one on a given day and fails the suite from then on; these are computed from
 * the clock, in Benin's calendar (UTC+1), as the server computes 'today'.
 */

/** Benin's year today (a new year starts at 23:00 UTC on 31 December). */
export function beninYear(now: Date = new Date()): number {
  return Number(beninDay(now).slice(0, 4));
}

/** Next year in Benin: every day of it is in the future, whatever today is. */
export function nextBeninYear(now: Date = new Date()): number {
  return beninYear(now) + 1;
}
