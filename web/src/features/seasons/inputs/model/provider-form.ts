import { z } from 'zod';

/**
 * The add-input-provider form (spec seasons §2.6, §5): a provider chosen, type and
 * fertilizer selects (not marked required, but a fertilizer is needed to add), the quantity
 * a positive whole number of kg at most the computed maximum.
 */
export interface ProviderFormMessages {
  quantityMin: string;
  maxError: (max: number) => string;
}

export function providerFormSchema(limit: number | undefined, messages: ProviderFormMessages) {
  return z
    .object({
      providerId: z.string().min(1),
      typeId: z.number().int().positive().nullable(),
      fertilizerId: z.number().int().positive().nullable(),
      quantity: z.number().nullable(),
    })
    .superRefine((values, ctx) => {
      const q = values.quantity;
      if (q === null || !Number.isInteger(q) || q <= 0) {
        ctx.addIssue({ code: 'custom', path: ['quantity'], message: messages.quantityMin });
        return;
      }
      if (limit !== undefined && q > limit) {
        ctx.addIssue({ code: 'custom', path: ['quantity'], message: messages.maxError(limit) });
      }
    });
}

export type ProviderFormValues = z.infer<ReturnType<typeof providerFormSchema>>;

/** 'Ajouter' is disabled (§5) without a provider or fertilizer, at 0 or less, or above the maximum. */
export function canAdd(values: ProviderFormValues, max: number | undefined): boolean {
  const q = values.quantity;
  return (
    values.providerId.length > 0 &&
    values.fertilizerId !== null &&
    q !== null &&
    Number.isInteger(q) &&
    q > 0 &&
    max !== undefined &&
    q <= max
  );
}
