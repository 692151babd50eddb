/** The read tables of the deliveries area (filled as the area grows). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DeliveriesTables {}
