import {
  defineEvent,
  type CommandPipeline,
  type EventDefinition,
  type StreamType,
} from '@filiere/event-store';
import {
  supplyStream,
  walletEventSchemas,
  walletStream,
  withdrawalStream,
} from './domain/index.js';

/** The wallet's event types, for the product's catalogue (built from the modules). */
export const walletEvents: EventDefinition<string, any>[] = Object.entries(walletEventSchemas).map(
  ([type, { version, schema }]) => defineEvent({ type, version, schema }),
);

/** The wallet's stream types (`wallet-…`, `supply-…`, `withdrawal-…`). */
export const walletStreams: StreamType[] = [walletStream, supplyStream, withdrawalStream];

/**
 * The wallet's stream types on a pipeline. The API's pipeline gets them from the module
 * list; the worker's job pipeline and tests' own pipelines get them here (registering the
 * same stream type twice is a no-op).
 */
export function registerWalletStreams(pipeline: CommandPipeline): CommandPipeline {
  for (const stream of walletStreams) pipeline.registerStreamType(stream);
  return pipeline;
}
