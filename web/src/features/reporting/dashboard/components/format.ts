import { formatMoney, formatNumber } from '../../../../shared/format/money.js';

/** Tonnes with up to three decimals: '12,5 t'. */
export function formatTonnes(value: number, lang: string): string {
  const text = new Intl.NumberFormat(lang === 'en' ? 'en-US' : 'fr-FR', {
    maximumFractionDigits: 3,
  })
    .format(value)
    .replace(/\u202f|\u00a0/g, ' ');
  return `${text} t`;
}

export { formatMoney, formatNumber };
