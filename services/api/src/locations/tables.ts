/**
 * The reference tables of Benin's territorial divisions (migrations/20261125_0500_locations),
 * read-only after the migration loads them. Codes are text: 'D03', 'C017', 'A098',
 * 'A098-001' (see tree.ts); names upper case without accents, as in the source.
 */
export interface LocationsTables {
  departments: { code: string; name: string };
  communes: { code: string; name: string; department_code: string };
  arrondissements: { code: string; name: string; commune_code: string };
  villages: { code: string; name: string; arrondissement_code: string; rank: number };
}
