import dayjs from 'dayjs';

/** A calendar day ('2027-04-22' → '22 avr. 2027'): delivery dates have no time. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = dayjs(iso);
  return d.isValid() ? d.format('D MMM YYYY') : '—';
}
