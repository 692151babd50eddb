import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Benin's territorial tree (data/benin-territorial.json, see data/README.md), flattened into
 * the rows of the four reference tables. Villages have no code in the source: a village's
 * code is its arrondissement's code and its 1-based rank in the file, on three digits
 * (`A001-001`); two villages of one arrondissement may share a name (one pair does), never a
 * code.
 */
const codeName = { code: z.string(), name: z.string().min(1) };
const treeSchema = z.array(
  z.object({
    ...codeName,
    code: z.string().regex(/^D\d{2}$/),
    communes: z.array(
      z.object({
        ...codeName,
        code: z.string().regex(/^C\d{3}$/),
        arrondissements: z.array(
          z.object({
            ...codeName,
            code: z.string().regex(/^A\d{3}$/),
            villages: z.array(z.string().min(1)).max(999),
          }),
        ),
      }),
    ),
  }),
);

export interface TerritorialRows {
  departments: { code: string; name: string }[];
  communes: { code: string; name: string; department_code: string }[];
  arrondissements: { code: string; name: string; commune_code: string }[];
  villages: { code: string; name: string; arrondissement_code: string; rank: number }[];
}

/** The village code of the `rank`-th (1-based) village of an arrondissement. */
export const villageCode = (arrondissementCode: string, rank: number): string =>
  `${arrondissementCode}-${String(rank).padStart(3, '0')}`;

/** Reads and checks the data file; the rows of each level, in file order. */
export function territorialRows(): TerritorialRows {
  const file = new URL('./data/benin-territorial.json', import.meta.url);
  const tree = treeSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const rows: TerritorialRows = {
    departments: [],
    communes: [],
    arrondissements: [],
    villages: [],
  };
  for (const department of tree) {
    rows.departments.push({ code: department.code, name: department.name });
    for (const commune of department.communes) {
      rows.communes.push({
        code: commune.code,
        name: commune.name,
        department_code: department.code,
      });
      for (const arrondissement of commune.arrondissements) {
        rows.arrondissements.push({
          code: arrondissement.code,
          name: arrondissement.name,
          commune_code: commune.code,
        });
        arrondissement.villages.forEach((name, i) =>
          rows.villages.push({
            code: villageCode(arrondissement.code, i + 1),
            name,
            arrondissement_code: arrondissement.code,
            rank: i + 1,
          }),
        );
      }
    }
  }
  return rows;
}
