/** The read tables of the requests area (filled as the area grows). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RequestsTables {}
