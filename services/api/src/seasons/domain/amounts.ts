import { BusinessRuleError } from '@filiere/platform';

/**
 * The amounts of an industrial's link to a season (decisions.md "Seasons"), in integer
 * F CFA, computed exactly: the season's yield (t/ha), quotity (%) and each fertilizer dose
 * (kg/ha) may carry up to two decimals, so they are turned into hundredths (integers) and
 * every product and ceiling is taken on BigInt — never a float on money.
 *
 * For a desired quantity Q (kg), price per kg P, yield Y (t/ha), fertilizer lines
 * (a_i F CFA per kg, d_i kg/ha) and quotity q %:
 * - hectares H = Q / (Y × 1000)
 * - productionAmount = Q × P
 * - fertilizerAmount = ceil(H × Σ a_i × d_i) = ceil(Q × Σ a_i × d_i / (Y × 1000))
 * - minSupplyAmount = fertilizerAmount + ceil(q / 100 × productionAmount)
 */
export interface SeasonPricing {
  /** P: F CFA per kg of pineapple (integer ≥ 1). */
  unitProductAmount: number;
  /** Y: tonnes of pineapple per hectare (≥ 1, at most 2 decimals). */
  productionIndex: number;
  /** q: percent of the production amount the industrial must hold (0–100, 2 decimals). */
  quotity: number;
  fertilizers: readonly { amount: number; index: number }[];
}

export interface LinkAmounts {
  quantity: number;
  productionAmount: number;
  fertilizerAmount: number;
  minSupplyAmount: number;
}

/** The largest amount the ledger takes as a JavaScript number without rounding. */
const MAX_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

export const AMOUNT_TOO_LARGE =
  'La quantité demandée donne des montants trop élevés : réduisez la quantité';

/**
 * A decimal with at most two decimals as an exact count of hundredths (52.5 → 5250n).
 * Throws on more decimals: the request schemas refuse them first (400).
 */
export function hundredths(value: number): bigint {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`not a decimal: ${value}`);
  const [whole, fraction = ''] = value.toFixed(10).split('.');
  const extra = fraction.slice(2);
  if (/[1-9]/.test(extra)) throw new RangeError(`more than two decimals: ${value}`);
  return BigInt(whole!) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
}

/** True when `value` has at most two decimals (what the schemas admit). */
export function hasAtMostTwoDecimals(value: number): boolean {
  try {
    hundredths(value);
    return true;
  } catch {
    return false;
  }
}

/** ceil(n / d) for n ≥ 0, d > 0. */
export function ceilDiv(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/** Σ a_i × d_i in F CFA per hectare, as hundredths (d_i has two decimals). */
export function fertilizerCostPerHectareHundredths(pricing: SeasonPricing): bigint {
  return pricing.fertilizers.reduce(
    (sum, line) => sum + BigInt(line.amount) * hundredths(line.index),
    0n,
  );
}

/** The amounts for `quantity` kg; 422 when they would pass what the ledger holds exactly. */
export function computeAmounts(pricing: SeasonPricing, quantity: number): LinkAmounts {
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    throw new RangeError(`quantity must be a positive integer: ${quantity}`);
  }
  const q = BigInt(quantity);
  const production = q * BigInt(pricing.unitProductAmount);
  // H × Σ a_i d_i = Q × (Σ a_i × D_i / 100) / (Yh / 100 × 1000) = Q × Σ a_i D_i / (Yh × 1000)
  const fertilizer = ceilDiv(
    q * fertilizerCostPerHectareHundredths(pricing),
    hundredths(pricing.productionIndex) * 1000n,
  );
  // q / 100 × production = (qh / 100) / 100 × production
  const quota = ceilDiv(hundredths(pricing.quotity) * production, 10_000n);
  const minSupply = fertilizer + quota;
  if (production > MAX_AMOUNT || minSupply > MAX_AMOUNT) {
    throw new BusinessRuleError(AMOUNT_TOO_LARGE, { reason: 'AMOUNT_TOO_LARGE' });
  }
  return {
    quantity,
    productionAmount: Number(production),
    fertilizerAmount: Number(fertilizer),
    minSupplyAmount: Number(minSupply),
  };
}
