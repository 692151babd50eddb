import { z } from 'zod';
import { ValidationError } from '@filiere/platform/errors';

/**
 * Quantities are integer kilograms; money is integer F CFA. A contract's price is its amount
 * for its quantity (the price per tonne is amount × 1000 / quantityKg, never stored rounded).
 *
 * Rounding rule: the worth of a delivery is computed once, exactly, on BigInt, and rounded
 * DOWN to the franc: floor(deliveredKg × amount / quantityKg). Delivering the contracted
 * quantity is worth exactly the contract's amount; any other quantity is at most 1 F CFA
 * below its exact worth, never above (the aggregator never pays for a fraction of a franc).
 */
export function deliveredAmountOf(
  contract: { amount: number; quantityKg: number },
  deliveredKg: number,
): number {
  requireSafePositive(contract.amount, 'amount');
  requireSafePositive(contract.quantityKg, 'quantityKg');
  requireSafePositive(deliveredKg, 'deliveredKg');
  const worth = (BigInt(deliveredKg) * BigInt(contract.amount)) / BigInt(contract.quantityKg);
  if (worth > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ValidationError('Montant hors limites', {
      fields: { deliveredKg: 'La quantité livrée est trop grande' },
    });
  }
  return Number(worth);
}

function requireSafePositive(value: number, field: string): void {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ValidationError('Valeur invalide', {
      fields: { [field]: 'La valeur doit être un entier strictement positif' },
    });
  }
}

/** The largest quantity a contract (or a delivery) names, in tonnes. */
export const MAX_CONTRACT_TONNES = 1_000_000;

export const NUMBER_MESSAGES = {
  quantity: 'Entré non valide : une quantité en tonnes, au plus trois décimales, non nulle',
  quantityCeiling: 'La quantité ne peut pas dépasser 1 000 000 t',
  amount: 'Entré non valide : un montant entier en FCFA, non nul',
} as const;

/** A number of a body or a file cell as text ('' for what no rule takes: NaN, 1e21…). */
function numberText(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return value.replace(/[\s\u00a0\u202f]/g, '');
}

/**
 * Tonnes to integer kg under the ONE rule of every body and every file cell, whatever the
 * value's JSON type: a number, or a text with '.' or ',' as the decimal mark and spaces as
 * the thousands' ('2', '2.5', '0,125', '1 000'); at most three decimals (a kilogram), above
 * zero, at most MAX_CONTRACT_TONNES. Parsed from the text, never through a float product.
 */
export function parseTonnes(
  value: string | number,
): { kg: number } | { error: keyof typeof NUMBER_MESSAGES } {
  const match = /^(\d{1,16})(?:[.,](\d{1,3}))?$/.exec(numberText(value));
  if (!match) return { error: 'quantity' };
  const kg = Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
  if (!(kg > 0)) return { error: 'quantity' };
  if (kg > MAX_CONTRACT_TONNES * 1000) return { error: 'quantityCeiling' };
  return { kg };
}

/**
 * An amount in F CFA under the same rule for bodies and files: a number, or digits with
 * spaces as the thousands' mark ('500000', '500 000'); a whole number above zero, at most
 * Number.MAX_SAFE_INTEGER. Null otherwise.
 */
export function parseAmount(value: string | number): number | null {
  const text = numberText(value);
  if (!/^\d{1,16}$/.test(text)) return null;
  const amount = Number(text);
  return amount > 0 && Number.isSafeInteger(amount) ? amount : null;
}

/** Tonnes to integer kg (parseTonnes), or the 400 naming the quantity's problem. */
export function tonnesToKg(tonnes: string | number): number {
  const parsed = parseTonnes(tonnes);
  if ('error' in parsed) {
    throw new ValidationError(NUMBER_MESSAGES[parsed.error], {
      fields: { quantity: NUMBER_MESSAGES[parsed.error] },
    });
  }
  return parsed.kg;
}

const INVALID = 'Entré non valide';

/**
 * A body's quantity in tonnes (a number or a text): parseTonnes' rule, so '1000001' is refused
 * like 1000001. The value passes as sent; the command converts it with tonnesToKg.
 */
export const tonnesField = z
  .union([z.number({ message: INVALID }), z.string({ message: INVALID }).max(40, INVALID)], {
    message: INVALID,
  })
  .superRefine((value, ctx) => {
    const parsed = parseTonnes(value);
    if ('error' in parsed) {
      // The spec's 'Entré non valide' for a malformed number; the ceiling says itself.
      const message =
        parsed.error === 'quantityCeiling' ? NUMBER_MESSAGES.quantityCeiling : INVALID;
      ctx.addIssue({ code: 'custom', message });
    }
  });

/** A body's amount in F CFA (a number or a text of digits) → the integer (parseAmount). */
export const amountField = z
  .union([z.number({ message: INVALID }), z.string({ message: INVALID }).max(40, INVALID)], {
    message: INVALID,
  })
  .transform((value, ctx) => {
    const amount = parseAmount(value);
    if (amount === null) {
      ctx.addIssue({ code: 'custom', message: INVALID });
      return z.NEVER;
    }
    return amount;
  });

/** Integer kg back to tonnes for display and the API ('2.5'). */
export function kgToTonnes(kg: number): string {
  const whole = Math.trunc(kg / 1000);
  const rest = kg % 1000;
  return rest === 0
    ? String(whole)
    : `${whole}.${String(rest).padStart(3, '0').replace(/0+$/, '')}`;
}

/** Built once: constructing an Intl.NumberFormat costs about 100 µs, formatting with it 1 µs. */
const fcfaGrouping = new Intl.NumberFormat('fr-FR');
/** '1 234 568' as the French messages write an amount (narrow no-break spaces). */
export const formatFcfa = (amount: number): string => fcfaGrouping.format(amount);
