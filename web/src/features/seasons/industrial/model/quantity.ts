import { z } from 'zod';
import { msg } from '../../../../shared/validation/rules.js';

/** The API's largest quantity (kg): 1 000 000 t. */
export const MAX_QUANTITY_KG = 1_000_000_000;

/**
 * A quantity of pineapple typed in tonnes ('80', '80,5', '80.125') as whole kg, exactly (the
 * API takes integer kg): at most 3 decimals; null when the text is no such number.
 */
export function tonnesToKg(text: string): number | null {
  const match = /^(\d{1,7})(?:[.,](\d{1,3}))?$/.exec(text.trim().replace(/\s/g, ''));
  if (!match) return null;
  const kg = Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
  return Number.isSafeInteger(kg) ? kg : null;
}

/** Whole kg shown in tonnes, French style: 100000 → '100', 80500 → '80,5'. */
export function kgToTonnes(kg: number): string {
  const whole = Math.trunc(kg / 1000);
  const rest = String(kg % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return rest ? `${grouped},${rest}` : grouped;
}

/**
 * 'Modifier' the desired quantity (spec §5: required, numeric; in tonnes): more than 0 and
 * at most 1 000 000 t, 3 decimals at most (kg).
 */
export const quantityForm = z.object({
  tonnes: z
    .string()
    .trim()
    .min(1, msg.required)
    .refine((v) => {
      const kg = tonnesToKg(v);
      return kg !== null && kg >= 1 && kg <= MAX_QUANTITY_KG;
    }, msg.invalid),
});

export type QuantityValues = z.infer<typeof quantityForm>;
