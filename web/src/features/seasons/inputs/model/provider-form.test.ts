import { describe, expect, it } from 'vitest';
import { canAdd, providerFormSchema } from './provider-form.js';

const messages = {
  quantityMin: 'min',
  maxError: (max: number) => `La quantité d'intrant doit être inférieur ou égale à ${max}`,
};
const values = { providerId: 'p', typeId: 1, fertilizerId: 1, quantity: 100 };

describe('add-input-provider form (§2.6, §5)', () => {
  it('refuses above the maximum with the spec text, and 0 or less', () => {
    const schema = providerFormSchema(80, messages);
    const over = schema.safeParse(values);
    expect(over.success).toBe(false);
    expect(over.error!.issues[0]!.message).toBe(
      "La quantité d'intrant doit être inférieur ou égale à 80",
    );
    expect(schema.safeParse({ ...values, quantity: 0 }).error!.issues[0]!.message).toBe('min');
    expect(schema.safeParse({ ...values, quantity: 80 }).success).toBe(true);
  });

  it("'Ajouter' is disabled without provider or fertilizer, at 0, above the maximum, or before the maximum is known", () => {
    expect(canAdd(values, 100)).toBe(true);
    expect(canAdd({ ...values, providerId: '' }, 100)).toBe(false);
    expect(canAdd({ ...values, fertilizerId: null }, 100)).toBe(false);
    expect(canAdd({ ...values, quantity: 0 }, 100)).toBe(false);
    expect(canAdd({ ...values, quantity: 101 }, 100)).toBe(false);
    expect(canAdd(values, undefined)).toBe(false);
  });
});
