import { ValidationError } from '@filiere/platform';

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

/**
 * Tonnes as the user types them ('2', '2.5', '0,125') to integer kg, exactly: at most three
 * decimals (a kilogram), above zero. Parsed from the text, never through a float product.
 */
export function tonnesToKg(tonnes: string | number): number {
  const text = String(tonnes).trim().replace(',', '.');
  const match = /^(\d+)(?:\.(\d{1,3}))?$/.exec(text);
  const kg = match ? Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0')) : NaN;
  if (!Number.isSafeInteger(kg) || kg <= 0) {
    throw new ValidationError('Quantité invalide', {
      fields: {
        quantity: 'Entré non valide : une quantité en tonnes, au plus trois décimales, non nulle',
      },
    });
  }
  return kg;
}

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
