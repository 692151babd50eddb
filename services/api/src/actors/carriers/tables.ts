/** The tables the carriers area's migrations create (declared beside them; merged in ../tables.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CarriersTables {}
