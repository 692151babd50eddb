const currency = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF' });
const grouped = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });

/** `1 234 568 F CFA` (integer F CFA; XOF has no minor unit). */
export function formatMoney(amount: number): string {
  return currency.format(amount);
}

/** Digits grouped by thousands with spaces, leading zeros stripped: `1 234 568`. */
export function groupThousands(digits: string): string {
  const clean = digits.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  return clean.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** The integer a money input holds, or null when it holds no digit. */
export function parseMoney(text: string): number | null {
  const digits = text.replace(/\D/g, '');
  if (!digits) return null;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : null;
}

export function formatNumber(value: number): string {
  return grouped.format(value);
}
