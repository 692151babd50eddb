/**
 * The texts growers receive (French, GSM-7 only so that one SMS holds 160 characters: no
 * typographic apostrophe, no ê/ô/â/ç; è, é, à, ù are GSM-7). Amounts in F CFA grouped by
 * spaces.
 */

const GSM7 =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENDED = '^{}\\[~]|€';

/** Whether `text` is GSM-7 only, and the septets it takes (an extended character takes 2). */
export function gsm7Length(text: string): number | undefined {
  let length = 0;
  for (const char of text) {
    if (GSM7.includes(char)) length += 1;
    else if (GSM7_EXTENDED.includes(char)) length += 2;
    else return undefined;
  }
  return length;
}

/** `25000` → `25 000`. */
export const fcfa = (amount: number): string =>
  `${String(Math.round(amount)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} F CFA`;

const kg = (quantity: number | null) => (quantity ? `, ${quantity} kg` : '');

/** An accepted input request: its delivery code, to give the provider when he delivers. */
export function requestCodeSms(reference: string, quantityKg: number | null, code: string) {
  return `Filière : demande d'intrants ${reference} acceptée${kg(quantityKg)}. Votre code de livraison : ${code}. Donnez-le au fournisseur à la livraison, à personne d'autre.`;
}

/** Inputs delivered: what, how much, their value, and the advance the grower now owes. */
export function inputDeliverySms(reference: string, quantityKg: number | null, amount: number) {
  return `Filière : intrants de la demande ${reference} livrés${kg(quantityKg)}, valeur ${fcfa(amount)}. Avance due : ${fcfa(amount)}, retenue sur vos paiements.`;
}
