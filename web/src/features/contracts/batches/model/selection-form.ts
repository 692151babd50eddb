import { z } from 'zod';

/**
 * 'Create from selected growers': the same quantity (tonnes, ≤ 3 decimals), amount (F CFA)
 * and delivery date for every selected grower (its only plot; the preview names a grower
 * with several). Messages are i18n keys of `contractBatches`.
 */
export const selectionForm = z.object({
  quantity: z
    .string()
    .trim()
    .min(1, 'validation:required')
    .regex(/^\d+([.,]\d{1,3})?$/, 'validation:invalid')
    .refine((v) => Number(v.replace(',', '.')) > 0, 'validation:invalid'),
  amount: z
    .string()
    .trim()
    .min(1, 'validation:required')
    .regex(/^[\d\s]+$/, 'validation:invalid')
    .refine((v) => Number(v.replace(/\s/g, '')) > 0, 'validation:invalid'),
  deliveryDate: z.string().optional(),
});
export type SelectionForm = z.infer<typeof selectionForm>;

export function toRows(growerIds: string[], form: SelectionForm) {
  return growerIds.map((growerId) => ({
    growerId,
    quantity: form.quantity.replace(',', '.'),
    amount: Number(form.amount.replace(/\s/g, '')),
    deliveryDate: form.deliveryDate || undefined,
  }));
}
