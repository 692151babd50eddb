import dayjs from 'dayjs';
import { formatMoney, formatNumber } from '../../../shared/format/money.js';

/**
 * How the season screens write their figures (spec §9): amounts in integer F CFA grouped by
 * thousands (`1 815 000 F CFA`, as the wallet screens), quantities in kg grouped, and the
 * 'Période' as a short date range.
 */

/** `01/12/2026 – 30/11/2027` from the API's 'YYYY-MM-DD' dates. */
export function formatPeriod(from: string, to: string): string {
  const short = (d: string) => (dayjs(d).isValid() ? dayjs(d).format('DD/MM/YYYY') : d);
  return `${short(from)} – ${short(to)}`;
}

/** `01/12/2026` from 'YYYY-MM-DD' (or an ISO instant). */
export function formatDay(value: string): string {
  return dayjs(value).isValid() ? dayjs(value).format('DD/MM/YYYY') : value;
}

/** `1 815 000 F CFA`. */
export const formatAmount = (amount: number): string => formatMoney(amount);

/** `100 000` (kg, or any whole count), grouped by thousands. */
export const formatQuantity = (value: number): string => formatNumber(value);
