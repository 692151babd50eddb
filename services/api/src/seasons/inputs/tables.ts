/** The read tables of the inputs area (filled as the area grows). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface InputsTables {}
