import type { FastifyInstance } from 'fastify';
import { CommandPipeline, EventStore } from '@filiere/event-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's event store: appends, reads, same-process append listeners. */
    eventStore: EventStore;
    /** The command pipeline (group commit) every context's commands go through. */
    commands: CommandPipeline;
  }
}

/**
 * One event store and one command pipeline per app. `deps.eventStore` lets
 * the server share its instance with the projection dispatch (onAppended);
 * tests get a fresh one on their own database. Closing the app drains the
 * pipeline so no accepted command is lost.
 */
export function registerCommandPipeline(app: FastifyInstance, eventStore?: EventStore): void {
  const store = eventStore ?? new EventStore(app.deps.db);
  const pipeline = new CommandPipeline(store, {
    batchMax: app.deps.config.COMMAND_BATCH_MAX,
    batchWaitMs: app.deps.config.COMMAND_BATCH_WAIT_MS,
  });
  app.decorate('eventStore', store);
  app.decorate('commands', pipeline);
  app.addHook('onClose', async () => {
    await pipeline.close();
  });
}
