import { describe, expect, it } from 'vitest';
import { resources } from '../../../../shared/i18n/resources.js';
import {
  BANK_PAIR,
  emptyGrowerForm,
  emptyPlot,
  growerCreateSchema,
  isBanned,
  NO_COOPERATIVE,
  plotSchema,
  prefilledMomo,
  toCreateInput,
  toPlotInput,
  totalArea,
  type GrowerFormValues,
  type PlotFormValues,
} from './grower-form.js';
import { serverFieldErrors } from './server-errors.js';
import { ApiError } from '../../../../shared/api/api-error.js';

const place = { department: 'D01', commune: 'C001', arrondissement: 'A001', village: 'A001-001' };
const plot: PlotFormValues = {
  ...emptyPlot,
  productType: 'CAYENNE_LISSE',
  place,
  location: 'Champ du bas-fond',
  longitude: '2.1234567',
  latitude: '6.6543210',
  plantingDate: '2026-03-01',
  areaSown: '1.5',
  estimatedProduction: '40',
};
const valid: GrowerFormValues = {
  ...emptyGrowerForm,
  clusterId: 'c1',
  lastname: 'Houngbédji',
  firstname: 'Akouavi',
  phone: '0197000001',
  address: place,
  cooperative: NO_COOPERATIVE,
  plots: [plot],
  momoNumber: '0197000001',
};

/** field path → the first message key of a failed parse (the one the form shows). */
function messages(schema: typeof growerCreateSchema | typeof plotSchema, value: unknown) {
  const result = schema.safeParse(value);
  const out: Record<string, string> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

describe('grower form (spec §5)', () => {
  it('accepts a complete grower with one plot', () => {
    expect(messages(growerCreateSchema, valid)).toEqual({});
  });

  it('requires names, phone, the four address levels, the cooperative choice and momo', () => {
    const m = messages(growerCreateSchema, { ...emptyGrowerForm, clusterId: 'c1' });
    for (const field of [
      'lastname',
      'firstname',
      'phone',
      'address.department',
      'address.commune',
      'address.arrondissement',
      'address.village',
      'cooperative',
      'momoNumber',
      'plots.0.productType',
      'plots.0.location',
      'plots.0.areaSown',
    ]) {
      expect(m[field], field).toBe('validation:required');
    }
  });

  it('checks the NIP (digits, ≤ 10), phones (8 or 10 digits), e-mail and the bank pair', () => {
    const m = messages(growerCreateSchema, {
      ...valid,
      nip: '12345678901',
      phone: '1234',
      contactPhone: '12',
      email: 'pas-un-mail',
      bankName: 'Ecobank Bénin',
    });
    expect(m.nip).toBe('validation:invalid');
    expect(m.phone).toBe('validation:phone');
    expect(m.contactPhone).toBe('validation:phone');
    expect(m.email).toBe('validation:email');
    expect(m.bankAccountNumber).toBe(BANK_PAIR);
    expect(messages(growerCreateSchema, { ...valid, nip: '12a' }).nip).toBe('validation:invalid');
    // 'Aucune coopérative' is a choice; an untouched select is not.
    expect(messages(growerCreateSchema, { ...valid, cooperative: '' }).cooperative).toBe(
      'validation:required',
    );
  });

  it('every message key it uses exists in French and English', () => {
    const [ns, path] = BANK_PAIR.split(':') as ['growers', string];
    const lookup = (root: unknown) =>
      path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], root);
    expect(lookup(resources.fr[ns])).toBe(
      'Indiquez la banque et le numéro de compte, ou aucun des deux',
    );
    expect(typeof lookup(resources.en[ns])).toBe('string');
  });
});

describe('plot form (spec §5)', () => {
  it('takes a decimal comma in the area, the production and the coordinates', () => {
    const french = {
      ...plot,
      areaSown: '2,5',
      estimatedProduction: '273,1',
      longitude: '2,4253',
      latitude: '6,3703',
    };
    expect(messages(plotSchema, french)).toEqual({});
    expect(toPlotInput(french)).toMatchObject({
      areaSown: 2.5,
      estimatedProduction: 273.1,
      longitude: 2.4253,
      latitude: 6.3703,
    });
    expect(messages(plotSchema, { ...plot, longitude: '2,12345678' }).longitude).toBe(
      'validation:invalid',
    );
  });

  it('refuses a sown area of 0 or not a decimal, and coordinates beyond 7 decimals', () => {
    expect(messages(plotSchema, { ...plot, areaSown: '0' }).areaSown).toBe('validation:invalid');
    expect(messages(plotSchema, { ...plot, areaSown: '0,0' }).areaSown).toBe('validation:invalid');
    expect(messages(plotSchema, { ...plot, areaSown: '1.5.2' }).areaSown).toBe(
      'validation:invalid',
    );
    expect(messages(plotSchema, { ...plot, longitude: '2.12345678' }).longitude).toBe(
      'validation:invalid',
    );
    expect(messages(plotSchema, { ...plot, latitude: 'abc' }).latitude).toBe('validation:invalid');
    expect(messages(plotSchema, { ...plot, longitude: '', latitude: '' })).toEqual({});
    expect(messages(plotSchema, { ...plot, estimatedProduction: 'x' }).estimatedProduction).toBe(
      'validation:invalid',
    );
  });
});

describe('payload', () => {
  it('sends codes by the spec names, E.164 phones, numbers, null for no cooperative', () => {
    const body = toCreateInput({ ...valid, phone: '97000001', momoNumber: '97000001' });
    expect(body.farmerOrganizationId).toBeNull();
    expect(body.user).toMatchObject({
      phone: '+2290197000001',
      department: 'D01',
      borough: 'C001',
      district: 'A001',
      village: 'A001-001',
      email: null,
      nip: null,
    });
    expect(body.products?.[0]).toMatchObject({
      productType: 'CAYENNE_LISSE',
      borough: 'C001',
      longitude: 2.1234567,
      latitude: 6.654321,
      areaSown: 1.5,
      estimatedProduction: 40,
      tifDate: null,
    });
    expect(body.momoInfo).toEqual({ momoNumber: '+2290197000001' });
    expect(body.accountInfo).toEqual({ providerName: null, accountNumber: null });
  });

  it('pre-fills mobile money from the phone (8 digits, or the 10 of a 01 number)', () => {
    expect(prefilledMomo('97000001')).toBe('97000001');
    expect(prefilledMomo('0197000001')).toBe('0197000001');
    expect(prefilledMomo('9700')).toBe('9700');
  });

  it('sums the plots when the list gives no total, and reads a ban from isActive', () => {
    expect(totalArea({ areaSown: 3.25 })).toBe(3.25);
    expect(
      totalArea({
        products: [{ areaSown: 1.5 }, { areaSown: 2 }] as never,
      }),
    ).toBe(3.5);
    expect(isBanned({ isActive: false })).toBe(true);
    expect(isBanned({ isActive: true, deactivatedAt: null })).toBe(false);
  });

  it('puts the server’s field messages and a used phone on the form fields', () => {
    const error = new ApiError(400, 'Requête invalide', undefined, {
      'user.phone': 'Numéro invalide',
      'products.1.areaSown': 'La superficie emblavée doit être un nombre décimal supérieur à 0',
      'products.0.borough': 'Code de commune invalide',
      'accountInfo.accountNumber': 'Entré non valide',
    });
    expect(serverFieldErrors(error)).toEqual([
      ['phone', 'Numéro invalide'],
      ['plots.1.areaSown', 'La superficie emblavée doit être un nombre décimal supérieur à 0'],
      ['plots.0.place.commune', 'Code de commune invalide'],
      ['bankAccountNumber', 'Entré non valide'],
    ]);
    const conflict = new ApiError(
      409,
      'Ce numéro de téléphone est déjà utilisé',
      'PHONE_ALREADY_EXIST',
    );
    expect(serverFieldErrors(conflict)).toEqual([
      ['phone', 'Ce numéro de téléphone est déjà utilisé'],
    ]);
  });
});
