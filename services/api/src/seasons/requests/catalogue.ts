import { defineEvent, type EventDefinition } from '@filiere/event-store';
import { requestEventSchemas } from './domain/events.js';

/** The requests' event types, for the product's catalogue (InputDelivered included). */
export const requestEvents: EventDefinition<string, any>[] = Object.entries(
  requestEventSchemas,
).map(([type, schema]) => defineEvent({ type, version: 1, schema }));

export { requestStream } from './domain/request-stream.js';
