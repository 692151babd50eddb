import { describe, expect, it } from 'vitest';
import { selectionForm, toRows } from './selection-form.js';

describe('create from selected growers', () => {
  it('accepts tonnes with at most three decimals and a whole amount, refuses the rest', () => {
    expect(selectionForm.safeParse({ quantity: '2,125', amount: '500 000' }).success).toBe(true);
    expect(selectionForm.safeParse({ quantity: '2.1255', amount: '1' }).success).toBe(false);
    expect(selectionForm.safeParse({ quantity: '0', amount: '1' }).success).toBe(false);
    expect(selectionForm.safeParse({ quantity: '1', amount: '1.5' }).success).toBe(false);
    expect(selectionForm.safeParse({ quantity: '', amount: '' }).error?.issues[0]?.message).toBe(
      'validation:required',
    );
  });

  it('makes one row per grower with the amount as an integer', () => {
    expect(toRows(['a', 'b'], { quantity: '1,5', amount: '20 000', deliveryDate: '' })).toEqual([
      { growerId: 'a', quantity: '1.5', amount: 20_000, deliveryDate: undefined },
      { growerId: 'b', quantity: '1.5', amount: 20_000, deliveryDate: undefined },
    ]);
  });
});
