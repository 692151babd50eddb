import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, EventCatalogue } from '@filiere/event-store';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder } from './events.js';
import { rebuildProjector } from './rebuild.js';
import { catchUp, ProjectionFailure } from './runner.js';
import {
  appendTestEvents,
  countingProjector,
  createCountingTables,
  ensureEventsTable,
} from './testing/index.js';
import type { ProjectionTables } from './migrations/tables.js';

const t = useTestDatabase<ProjectionTables>();
const Counted = defineEvent({ type: 'Counted', version: 1, schema: z.object({}) });

beforeAll(async () => {
  await ensureEventsTable(t.db);
  await appendTestEvents(t.db, [
    { streamId: 'd-1', type: 'Counted' },
    { streamId: 'd-1', type: 'Counted' },
  ]);
});

describe('decoding through the catalogue', () => {
  it('an event type the catalogue does not know stops the projector; it is never passed through', async () => {
    await createCountingTables(t.db, 'dec_unknown');
    const projector = countingProjector('dec_unknown');
    const decode = catalogueDecoder(new EventCatalogue([]));
    const failure = await catchUp(t.db, projector, { decode }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProjectionFailure);
    expect((failure as Error).message).toContain('type not in the catalogue');
    await expect(rebuildProjector(t.db, projector, { decode })).rejects.toThrow(
      /type not in the catalogue/,
    );
  });

  it('a type the catalogue knows is decoded and applied', async () => {
    await createCountingTables(t.db, 'dec_known');
    const decode = catalogueDecoder(new EventCatalogue([Counted]));
    const result = await catchUp(t.db, countingProjector('dec_known'), { decode });
    expect(result).toMatchObject({ read: 2, caughtUp: true });
  });
});
