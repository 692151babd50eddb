/**
 * Benin's calendar day. Africa/Porto-Novo is UTC+1 all year (no daylight saving), so between
 * 23:00 and 24:00 UTC the users' 'today' is already the next UTC day: every rule "not before
 * today" / "not after today" compares with this day, never with the UTC one.
 */
export function beninDay(at: Date | string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Africa/Porto-Novo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(typeof at === 'string' ? new Date(at) : at);
}
