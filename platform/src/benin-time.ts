/**
 * Benin's calendar day. Africa/Porto-Novo is UTC+1 all year (no daylight saving), so between
 * 23:00 and 24:00 UTC the users' 'today' is already the next UTC day: every rule "not before
 * today" / "not after today" compares with this day, never with the UTC one.
 */
export function beninDay(at: Date | string): string {
  return beninDayFormat.format(typeof at === 'string' ? new Date(at) : at);
}

/**
 * Built once: constructing an Intl.DateTimeFormat loads its locale and time zone data (about
 * 100 µs against 1 µs to format), which the dashboard projector paid on every event it folded.
 */
const beninDayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Africa/Porto-Novo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
