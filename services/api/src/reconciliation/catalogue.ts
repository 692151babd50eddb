import { defineEvent, type EventDefinition, type StreamType } from '@filiere/event-store';
import {
  dayStream,
  exceptionStream,
  reconciliationSchemas,
  statementStream,
} from './domain/index.js';

/** Reconciliation's event definitions, for the product's catalogue. */
export const reconciliationEvents: EventDefinition<string, any>[] = Object.entries(
  reconciliationSchemas,
).map(([type, schema]) => defineEvent({ type, version: 1, schema }));

/** Its stream types: statements, days, exceptions. */
export const reconciliationStreams: readonly StreamType<any>[] = [
  statementStream,
  dayStream,
  exceptionStream,
];
