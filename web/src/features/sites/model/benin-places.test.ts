import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import places from './benin-places.json';
import { communePointOf, labelKindAt, labelsOf } from './benin-labels.js';

interface Reference {
  code: string;
  name: string;
  communes: { code: string; name: string }[];
}
const reference = JSON.parse(
  readFileSync(
    new URL(
      '../../../../../services/api/src/locations/data/benin-territorial.json',
      import.meta.url,
    ),
    'utf8',
  ),
) as Reference[];

/** Benin's extent, with a margin of a few km. */
const inBenin = (p: { latitude: number; longitude: number }) =>
  p.latitude > 6.1 && p.latitude < 12.5 && p.longitude > 0.7 && p.longitude < 3.9;

describe("the offline map's places", () => {
  it('gives every department of the reference data a position in Benin, under its name', () => {
    expect(places.departments.map((d) => [d.code, d.name])).toEqual(
      reference.map((d) => [d.code, d.name]),
    );
    for (const d of places.departments) expect(inBenin(d), d.name).toBe(true);
    expect(places.departments).toHaveLength(12);
  });

  it('gives every commune of the reference data a position in Benin, under its name', () => {
    expect(places.communes.map((c) => [c.departmentCode, c.code, c.name])).toEqual(
      reference.flatMap((d) => d.communes.map((c) => [d.code, c.code, c.name])),
    );
    expect(places.communes).toHaveLength(77);
    for (const c of places.communes) expect(inBenin(c), c.name).toBe(true);
    // Two well-known seats, where they are.
    const at = (name: string) => places.communes.find((c) => c.name === name)!;
    expect(at('COTONOU')).toMatchObject({ latitude: 6.3667, longitude: 2.4333 });
    expect(Math.abs(at('PARAKOU').latitude - 9.35)).toBeLessThan(0.05);
  });

  it('a commune lies near its department (within 1.5° of the mean of its communes)', () => {
    for (const c of places.communes) {
      const d = places.departments.find((x) => x.code === c.departmentCode)!;
      expect(Math.abs(c.latitude - d.latitude), c.name).toBeLessThan(1.5);
      expect(Math.abs(c.longitude - d.longitude), c.name).toBeLessThan(1.5);
    }
  });

  it('labels departments below zoom 9 and communes from it; finds a suggestion’s commune', () => {
    const labels = labelsOf(places);
    expect(labels.filter((l) => l.kind === 'department')).toHaveLength(12);
    expect(labels.filter((l) => l.kind === 'commune')).toHaveLength(77);
    expect([labelKindAt(7), labelKindAt(8.9), labelKindAt(9), labelKindAt(12)]).toEqual([
      'department',
      'department',
      'commune',
      'commune',
    ]);
    const allada = places.communes.find((c) => c.name === 'ALLADA')!;
    expect(communePointOf(places, 'ACCLOHOUE, AGBANOU, ALLADA, ATLANTIQUE')).toEqual({
      latitude: allada.latitude,
      longitude: allada.longitude,
    });
    expect(communePointOf(places, 'ALLADA, Atlantique, Bénin')).toBeNull();
  });
});
