import { narrowDb } from '@filiere/platform';
import type { Kysely } from 'kysely';
import type { LocationsTables } from './tables.js';

/** A place of any level: its code and its name (upper case, no accents, as in the data). */
export interface Place {
  code: string;
  name: string;
}

export const LOCATION_LEVELS = ['department', 'commune', 'arrondissement', 'village'] as const;
export type LocationLevel = (typeof LOCATION_LEVELS)[number];

/** A village and the places above it. */
export interface VillageChain {
  department: Place;
  commune: Place;
  arrondissement: Place;
  village: Place;
}

/** The chain down to a level: `common/{id}` gives department + commune, and so on. */
export type CommuneChain = Pick<VillageChain, 'department' | 'commune'>;
export type ArrondissementChain = Pick<VillageChain, 'department' | 'commune' | 'arrondissement'>;

/** Codes as forms send them: '' or absent for a level not given. */
export type LocationCodes = Partial<Record<LocationLevel, string | null>>;

const narrow = narrowDb<LocationsTables>();

/** The queries of the reference tables, on any database that holds them. */
export const placesOf = <DB extends LocationsTables>(db: Kysely<DB>): Places =>
  new Places(narrow(db));

/**
 * The LIKE pattern of a search: accents dropped and upper case (the names are stored so),
 * LIKE's wildcards escaped; undefined when the search is empty.
 */
export function namePattern(q: string | undefined): string | undefined {
  const text = (q ?? '').normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().trim();
  return text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
}

/** The queries of the reference tables; every list sorted by name (then code). */
export class Places {
  constructor(private readonly db: Kysely<LocationsTables>) {}

  departments(q?: string): Promise<Place[]> {
    const pattern = namePattern(q);
    return this.db
      .selectFrom('departments')
      .select(['code', 'name'])
      .$if(!!pattern, (qb) => qb.where('name', 'like', pattern!))
      .orderBy('name')
      .orderBy('code')
      .execute();
  }

  /** The communes of a department (undefined: no such department). */
  async communes(departmentCode: string, q?: string) {
    if (!(await this.department(departmentCode))) return undefined;
    const pattern = namePattern(q);
    return this.db
      .selectFrom('communes')
      .select(['code', 'name', 'department_code as departmentCode'])
      .where('department_code', '=', departmentCode)
      .$if(!!pattern, (qb) => qb.where('name', 'like', pattern!))
      .orderBy('name')
      .orderBy('code')
      .execute();
  }

  /** The arrondissements of a commune (undefined: no such commune). */
  async arrondissements(communeCode: string, q?: string) {
    if (!(await this.commune(communeCode))) return undefined;
    const pattern = namePattern(q);
    return this.db
      .selectFrom('arrondissements')
      .select(['code', 'name', 'commune_code as communeCode'])
      .where('commune_code', '=', communeCode)
      .$if(!!pattern, (qb) => qb.where('name', 'like', pattern!))
      .orderBy('name')
      .orderBy('code')
      .execute();
  }

  /** The villages of an arrondissement (undefined: no such arrondissement). */
  async villages(arrondissementCode: string, q?: string) {
    if (!(await this.arrondissement(arrondissementCode))) return undefined;
    const pattern = namePattern(q);
    return this.db
      .selectFrom('villages')
      .select(['code', 'name', 'arrondissement_code as arrondissementCode'])
      .where('arrondissement_code', '=', arrondissementCode)
      .$if(!!pattern, (qb) => qb.where('name', 'like', pattern!))
      .orderBy('name')
      .orderBy('code')
      .execute();
  }

  department(code: string): Promise<Place | undefined> {
    return this.db
      .selectFrom('departments')
      .select(['code', 'name'])
      .where('code', '=', code)
      .executeTakeFirst();
  }

  /** A commune and its department. */
  async commune(code: string): Promise<CommuneChain | undefined> {
    const row = await this.db
      .selectFrom('communes as c')
      .innerJoin('departments as d', 'd.code', 'c.department_code')
      .select(['d.code as dCode', 'd.name as dName', 'c.code as cCode', 'c.name as cName'])
      .where('c.code', '=', code)
      .executeTakeFirst();
    return row && { department: place(row.dCode, row.dName), commune: place(row.cCode, row.cName) };
  }

  /** An arrondissement, its commune and its department. */
  async arrondissement(code: string): Promise<ArrondissementChain | undefined> {
    const row = await this.db
      .selectFrom('arrondissements as a')
      .innerJoin('communes as c', 'c.code', 'a.commune_code')
      .innerJoin('departments as d', 'd.code', 'c.department_code')
      .select([
        'd.code as dCode',
        'd.name as dName',
        'c.code as cCode',
        'c.name as cName',
        'a.code as aCode',
        'a.name as aName',
      ])
      .where('a.code', '=', code)
      .executeTakeFirst();
    return (
      row && {
        department: place(row.dCode, row.dName),
        commune: place(row.cCode, row.cName),
        arrondissement: place(row.aCode, row.aName),
      }
    );
  }

  /** A village and the chain above it. */
  async village(code: string): Promise<VillageChain | undefined> {
    const row = await this.db
      .selectFrom('villages as v')
      .innerJoin('arrondissements as a', 'a.code', 'v.arrondissement_code')
      .innerJoin('communes as c', 'c.code', 'a.commune_code')
      .innerJoin('departments as d', 'd.code', 'c.department_code')
      .select([
        'd.code as dCode',
        'd.name as dName',
        'c.code as cCode',
        'c.name as cName',
        'a.code as aCode',
        'a.name as aName',
        'v.code as vCode',
        'v.name as vName',
      ])
      .where('v.code', '=', code)
      .executeTakeFirst();
    return (
      row && {
        department: place(row.dCode, row.dName),
        commune: place(row.cCode, row.cName),
        arrondissement: place(row.aCode, row.aName),
        village: place(row.vCode, row.vName),
      }
    );
  }
}

const place = (code: string, name: string): Place => ({ code, name });
