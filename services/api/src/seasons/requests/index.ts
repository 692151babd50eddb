import type { SeasonsArea } from '../area.js';
import { requestEvents, requestStream } from './catalogue.js';
import { requestsDemoStep } from './demo/requests.js';
import { requestWriteMigrations } from './migrations/index.js';
import { REQUEST_PUSHES } from './pushes.js';
import { requestProjectors, requestReadMigrations } from './read-model/index.js';

/**
 * Growers' requests in a season: INPUT, PINEAPLE, SOCIAL (block 20261126_02NN). Streams
 * `seasonrequest-<id>`, read table `season_requests`; the deliveries area appends
 * `InputDelivered` to a request's stream (its type and factory live here).
 */
export const requestsArea: SeasonsArea = {
  name: 'season-requests',
  migrations: { ...requestWriteMigrations, ...requestReadMigrations },
  events: requestEvents,
  streams: [requestStream],
  projectors: requestProjectors,
  pushes: REQUEST_PUSHES,
  demo: [requestsDemoStep],
  http: async () => (await import('./http/index.js')).registerSeasonRequests,
};

// The area's face for the other seasons areas (deliveries).
export {
  DELIVERY_CODE,
  REQUEST_TYPES,
  REQUEST_STATUSES,
  requestEvent,
  requestReference,
  requestStream,
  requestStreamId,
  initialRequestState,
  evolveRequest,
  type RequestDelivery,
  type RequestEvent,
  type RequestState,
  type RequestStatus,
  type RequestType,
} from './domain/index.js';
export { REQUEST_PUSHES, type RequestPushType } from './pushes.js';
export type { RequestsTables } from './tables.js';
