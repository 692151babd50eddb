import type { FastifyInstance } from 'fastify';
import { CommandPipeline, EventStore } from '@filiere/event-store';
import type { Product } from './kernel/modules.js';

/**
 * One event store and one command pipeline per app, with the modules' catalogue and
 * stream types. `deps.eventStore` lets the server share its instance with the projection
 * dispatch (onAppended); tests get a fresh one on their own database. Closing the app
 * drains the pipeline so no accepted command is lost.
 */
export function registerCommandPipeline(
  app: FastifyInstance,
  product: Product,
  eventStore?: EventStore,
): void {
  const store = eventStore ?? new EventStore(app.deps.db, product.catalogue);
  const pipeline = new CommandPipeline(store, {
    batchMax: app.deps.config.COMMAND_BATCH_MAX,
    batchWaitMs: app.deps.config.COMMAND_BATCH_WAIT_MS,
  });
  for (const stream of product.streams) pipeline.registerStreamType(stream);
  app.decorate('eventStore', store);
  app.decorate('commands', pipeline);
  app.addHook('onClose', async () => {
    await pipeline.close();
  });
}
