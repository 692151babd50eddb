/** The tables the clusters area's migrations create (declared beside them; merged in ../tables.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClustersTables {}
