/**
 * Large numbers on the dashboard's charts and cards' axes, abbreviated as the spec says
 * (actors-contracts-admin §2.11: "abbreviate large numbers as K, M, Md"): thousands K,
 * millions M, billions Md ("milliards"; B in English). One decimal at most, with the
 * language's decimal sign, and none when it is zero: 1 500 → '1,5 K', 2 000 000 → '2 M'.
 * Below a thousand the number is shown whole, grouped.
 */
const UNITS = [
  { size: 1e9, fr: 'Md', en: 'B' },
  { size: 1e6, fr: 'M', en: 'M' },
  { size: 1e3, fr: 'K', en: 'K' },
] as const;

export function formatCompact(value: number, lang: string = 'fr'): string {
  const locale = lang === 'en' ? 'en-US' : 'fr-FR';
  const abs = Math.abs(value);
  for (const unit of UNITS) {
    // 999 950 rounds to 1 000,0 K: shown as 1 M instead.
    if (abs >= unit.size * 0.99995) {
      const scaled = Math.round((value / unit.size) * 10) / 10;
      const text = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(scaled);
      return `${text} ${lang === 'en' ? unit.en : unit.fr}`;
    }
  }
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 })
    .format(value)
    .replace(/\u202f|\u00a0/g, ' ');
}
