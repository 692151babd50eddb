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

/** `123456` → `123 456`. */
const grouped = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** `25000` → `25 000 F CFA`. */
export const fcfa = (amount: number): string => `${grouped(amount)} F CFA`;

const kg = (quantity: number | null) => (quantity ? `, ${quantity} kg` : '');

/** An accepted input request: its delivery code, to give the provider when he delivers. */
export function requestCodeSms(reference: string, quantityKg: number | null, code: string) {
  return `Filière : demande d'intrants ${reference} acceptée${kg(quantityKg)}. Votre code de livraison : ${code}. Donnez-le au fournisseur à la livraison, à personne d'autre.`;
}

/** Inputs delivered: what, how much, their value, and the advance the grower now owes. */
export function inputDeliverySms(reference: string, quantityKg: number | null, amount: number) {
  return `Filière : intrants de la demande ${reference} livrés${kg(quantityKg)}, valeur ${fcfa(amount)}. Avance due : ${fcfa(amount)}, retenue sur vos paiements.`;
}

/** A mobile money number as a receipt shows it: its last 4 digits (`*` is GSM-7, `•` is not). */
export const maskedMobile = (number: string): string =>
  number.length <= 4 ? '****' : `****${number.slice(-4)}`;

/** Where a payment went: a mobile money number (masked), or the grower's Filière account. */
export type PaidTo = { mobileMoney: string } | { wallet: true };

/** A creditor's name as a receipt shows it (short: a receipt should fit one SMS). */
export const shortName = (name: string): string => {
  const clean = name.replace(/\s+/g, ' ').trim();
  return clean.length <= 16 ? clean : `${clean.slice(0, 15).trimEnd()}.`;
};

/**
 * A contract paid: its worth (gross), each debt recovered by creditor, the net and where it
 * went, and the receipt's public reference (checked at `/verifier/{reference}`).
 */
export function paymentSms(input: {
  contractReference: string;
  gross: number;
  recoveries: readonly { creditor: string; amount: number }[];
  net: number;
  paidTo: PaidTo;
  verification: string;
}): string {
  const recovered = input.recoveries.length
    ? ` Retenu : ${input.recoveries.map((r) => `${shortName(r.creditor)} ${fcfa(r.amount)}`).join(', ')}.`
    : '';
  const where =
    'mobileMoney' in input.paidTo
      ? `au ${maskedMobile(input.paidTo.mobileMoney)}`
      : 'sur votre compte Filière';
  return `Filière : paiement ${input.contractReference}. Brut ${fcfa(input.gross)}.${recovered} Net ${fcfa(input.net)} ${where}. Vérif. ${input.verification}`;
}

/**
 * A grower's month (`MM/YYYY`: month names are not all GSM-7, nor is the ç of "reçu"): his
 * deliveries, the net he was paid for them, the advances he still owes and his Filière balance.
 */
export function monthlySummarySms(input: {
  month: string;
  deliveries: number;
  deliveredKg: number;
  paid: number;
  owed: number;
  balance: number;
}): string {
  return `Filière : votre mois ${input.month}. Livraisons : ${input.deliveries}, ${grouped(input.deliveredKg)} kg. Net payé : ${fcfa(input.paid)}. Avances dues : ${fcfa(input.owed)}. Solde : ${fcfa(input.balance)}.`;
}
