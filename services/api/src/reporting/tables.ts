/**
 * The reporting context's read tables, merged from its areas' (each declares its own beside
 * its migrations and adds them here).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the areas
export interface ReportingTables {}
