/** The sites' tables (filled as the context grows). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SitesTables {}
