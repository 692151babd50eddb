import i18n from 'i18next';

/**
 * Numbers as people in Benin type and read them: a decimal comma or a dot ('2,5' and '2.5'),
 * spaces between thousands ('1 234,5'); printed with the interface language's decimal sign
 * ('2,5 t' in French, '2.5 t' in English) and grouped thousands.
 */

/** A decimal as typed: digits (thousands may be spaced), then a comma or a dot and digits. */
const DECIMAL_TEXT = /^(-?)(\d{1,3}(?: \d{3})+|\d+)(?:[.,](\d+))?$/;

export interface DecimalRule {
  /** Most digits after the decimal sign (default: any). */
  maxDecimals?: number;
  /** A minus sign is allowed (coordinates). */
  signed?: boolean;
}

/** The number a decimal field holds, or null when its text is no such number. */
export function parseDecimal(text: string, rule: DecimalRule = {}): number | null {
  const clean = text.trim().replace(/[\u00a0\u202f]/g, ' ');
  const match = DECIMAL_TEXT.exec(clean);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  if (sign && !rule.signed) return null;
  if (rule.maxDecimals !== undefined && fraction.length > rule.maxDecimals) return null;
  const value = Number(`${sign}${whole!.replace(/ /g, '')}${fraction ? `.${fraction}` : ''}`);
  return Number.isFinite(value) ? value : null;
}

/** Whether `text` is a decimal under `rule` ('2,5', '2.5', '12'). */
export function isDecimalText(text: string, rule: DecimalRule = {}): boolean {
  return parseDecimal(text, rule) !== null;
}

/** The text a decimal field sends where the API takes a number as text: '2,5' → '2.5'. */
export function decimalForApi(text: string, rule: DecimalRule = {}): string {
  const value = parseDecimal(text, rule);
  return value === null ? text.trim() : String(value);
}

/** A number from the API put in a text field: '2.5' reads '2,5' in French. */
export function decimalForInput(
  value: number | string,
  language: string | undefined = i18n.language,
): string {
  const text = String(value).trim();
  return numberLocale(language) === 'fr-FR' ? text.replace('.', ',') : text;
}

const LOCALES: Record<string, string> = { fr: 'fr-FR', en: 'en-GB' };

/** The locale of the interface's language ('fr-FR' unless English is chosen). */
export function numberLocale(language: string | undefined = i18n.language): string {
  return LOCALES[(language ?? '').slice(0, 2)] ?? 'fr-FR';
}

/**
 * A quantity, area or rate for reading: '273,1', '2,5', '1 234,5' in French (up to
 * `maxDecimals`, none when whole). A value from the API as text ('2.5') is read first.
 */
export function formatDecimal(
  value: number | string | null | undefined,
  maxDecimals = 3,
  language?: string,
): string {
  const number = typeof value === 'string' ? Number(value) : value;
  if (number === null || number === undefined || !Number.isFinite(number)) return '';
  return new Intl.NumberFormat(numberLocale(language), {
    maximumFractionDigits: maxDecimals,
  }).format(number);
}
