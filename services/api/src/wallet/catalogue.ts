import type { CommandPipeline } from '@filiere/event-store';
import { eventCatalogue } from '@filiere/event-store';
import {
  supplyStream,
  walletEventSchemas,
  walletStream,
  withdrawalStream,
  type WalletEventType,
} from './domain/index.js';

/**
 * Defines every wallet event type in the process-wide event catalogue. `define` is
 * idempotent for the same schema object, so calling this once per app (or per worker)
 * is safe.
 */
export function defineWalletEvents(): void {
  for (const [type, { version, schema }] of Object.entries(walletEventSchemas)) {
    eventCatalogue.define({ type: type as WalletEventType, version, schema });
  }
}

/** The wallet's stream types (`wallet-…`, `supply-…`, `withdrawal-…`) on a pipeline. */
export function registerWalletStreams(pipeline: CommandPipeline): CommandPipeline {
  defineWalletEvents();
  return pipeline
    .registerStreamType(walletStream)
    .registerStreamType(supplyStream)
    .registerStreamType(withdrawalStream);
}
