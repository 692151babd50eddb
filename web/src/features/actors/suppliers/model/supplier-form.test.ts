import { describe, expect, it } from 'vitest';
import '../../../../shared/validation/rules.js';
import {
  emptySupplierForm,
  supplierCreateSchema,
  toSupplierInput,
  type SupplierFormValues,
} from './supplier-form.js';

const filled: SupplierFormValues = {
  ...emptySupplierForm,
  denomination: 'Intrants du Sud SARL',
  lastname: 'Agossou',
  firstname: 'Koffi',
  email: 'koffi@intrants.bj',
  nip: '1234567890',
  phone: '96123456',
  rccm: 'RB/COT/19 B 24518',
  ifu: '3201900054321',
  locations: [{ label: 'Magasin', address: 'Allada', latitude: '6,6651234', longitude: '' }],
  fertilizers: [
    { typeId: '1', fertilizerId: '1' },
    { typeId: '1', fertilizerId: '1' },
    { typeId: '2', fertilizerId: '6' },
  ],
  bankName: 'Ecobank Bénin',
  accountNumber: 'BJ066',
  momoNumber: '96123456',
};

describe('supplier form', () => {
  it('sends the API’s payload: numbers for coordinates, fertilizer ids once, payout at creation', () => {
    expect(supplierCreateSchema.safeParse(filled).success).toBe(true);
    expect(toSupplierInput(filled, true)).toEqual({
      denomination: 'Intrants du Sud SARL',
      user: {
        lastname: 'Agossou',
        firstname: 'Koffi',
        email: 'koffi@intrants.bj',
        nip: '1234567890',
        phone: '96123456',
        rccm: 'RB/COT/19 B 24518',
        ifu: '3201900054321',
      },
      locations: [{ label: 'Magasin', address: 'Allada', latitude: 6.6651234, longitude: null }],
      fertilizerIds: [1, 6],
      accountInfo: { providerName: 'Ecobank Bénin', accountNumber: 'BJ066' },
      momoInfo: { momoNumber: '96123456' },
    });
    expect(toSupplierInput(filled, false)).not.toHaveProperty('accountInfo');
  });

  it('the spec’s rules: required fields, numeric NIP/IFU/coordinates, fertilizer lines', () => {
    const result = supplierCreateSchema.safeParse({
      ...filled,
      lastname: '',
      nip: '12a',
      ifu: '',
      phone: '123',
      locations: [{ label: '', address: 'x', latitude: 'nord', longitude: '' }],
      fertilizers: [{ typeId: '1', fertilizerId: '' }],
      bankName: '',
    });
    const messages = Object.fromEntries(
      result.error!.issues.map((i) => [i.path.join('.'), i.message]),
    );
    expect(messages).toMatchObject({
      lastname: 'validation:required',
      nip: 'validation:invalid',
      ifu: 'validation:required',
      phone: 'validation:phone',
      'locations.0.label': 'validation:required',
      'locations.0.latitude': 'validation:invalid',
      'fertilizers.0.fertilizerId': 'validation:required',
      bankName: 'validation:required',
    });
  });
});
