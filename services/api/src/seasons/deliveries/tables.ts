/**
 * The read tables of the deliveries area: none — a delivery is an event of the request's
 * stream, read from `season_requests` (requests area) and `season_input_providers` (inputs).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DeliveriesTables {}
