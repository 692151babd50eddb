import { describe, expect, it } from 'vitest';
import { createGrowerBody, createPlotBody, updatePlotBody } from './schemas.js';

const plot = {
  productType: 'CAYENNE_LISSE',
  department: 'D03',
  borough: 'C017',
  district: 'A098',
  village: 'A098-002',
  location: 'Parcelle de Sékou',
  latitude: '6.6512345678',
  longitude: 2.15,
  plantingDate: '2026-03-01',
  tifDate: '',
  areaSown: '1.5',
  estimatedProduction: '',
};
const fields = (r: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('growers schemas (spec §5 messages)', () => {
  it('given a well-formed plot, when parsed, then decimals become numbers rounded as stored', () => {
    const r = createPlotBody.parse({ ...plot, growerId: '0b0e7a4e-3f52-4c4f-9d7e-5f7f2b1c2d3e' });
    expect(r.latitude).toBe(6.6512346);
    expect(r.areaSown).toBe(1.5);
    expect(r.tifDate).toBeNull();
    expect(r.estimatedProduction).toBeNull();
  });
  it('given a zero, missing or malformed area, when parsed, then the French field message', () => {
    expect(fields(createPlotBody.safeParse({ ...plot, areaSown: '0' }))).toMatchObject({
      areaSown: 'La superficie emblavée doit être un nombre décimal supérieur à 0',
    });
    expect(fields(createPlotBody.safeParse({ ...plot, areaSown: undefined }))).toMatchObject({
      areaSown: 'Ce champ est obligatoire',
    });
    expect(fields(createPlotBody.safeParse({ ...plot, areaSown: '1,5' }))).toMatchObject({
      areaSown: 'La superficie emblavée doit être un nombre décimal supérieur à 0',
    });
    expect(
      fields(createPlotBody.safeParse({ ...plot, productType: undefined, location: '' })),
    ).toMatchObject({
      productType: 'Ce champ est obligatoire',
      location: 'Ce champ est obligatoire',
    });
  });
  it('given a village of another arrondissement, when parsed, then refused on village', () => {
    expect(fields(updatePlotBody.safeParse({ ...plot, village: 'A099-001' }))).toMatchObject({
      village: 'Ce village n’appartient pas à l’arrondissement choisi',
    });
    expect(fields(updatePlotBody.safeParse({ department: 'D03' }))).toMatchObject({
      borough: 'Ce champ est obligatoire',
    });
  });
  it('given a create payload, when parsed, then phone E.164 and required fields named', () => {
    const ok = createGrowerBody.parse({
      farmerOrganizationId: '',
      user: {
        lastname: 'Houénou',
        firstname: 'Comlan',
        phone: '97000001',
        department: 'D03',
        borough: 'C017',
        district: 'A098',
        village: 'A098-001',
        email: '',
      },
      products: [plot],
      momoInfo: { momoNumber: '97000001' },
    });
    expect(ok.user.phone).toBe('+2290197000001');
    expect(ok.farmerOrganizationId).toBeNull();
    expect(ok.user.email).toBeNull();
    const bad = fields(createGrowerBody.safeParse({ user: { nip: '12345678901' }, momoInfo: {} }));
    expect(bad).toMatchObject({
      'user.lastname': 'Ce champ est obligatoire',
      'user.phone': 'Ce champ est obligatoire',
      'user.nip': 'Le NIP ne contient que des chiffres (au plus 10)',
      'momoInfo.momoNumber': 'Ce champ est obligatoire',
    });
  });
});
