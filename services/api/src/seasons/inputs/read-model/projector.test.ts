import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventCatalogue } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp, checkProjector, type PushMessage } from '@filiere/projections';
import type { Database } from '../../../database.js';
import { buildTestApp } from '../../../test-app.js';
import { inputEvents } from '../catalogue.js';
import { assignmentStreamId, inputEvent } from '../domain/index.js';
import { inputProvidersProjector } from './projector.js';

const decode = catalogueDecoder(new EventCatalogue(inputEvents));

/**
 * season_input_providers and its push: the industrial and the provider of an assignment hear
 * `seasons.inputs` once the row is written (the providers' list followed the POST's one
 * refetch only, which a lagging projection answered stale: CI's season-inputs e2e waited 30 s
 * for 'Accepté').
 */
describe('season_input_providers read model (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  const pushes: PushMessage[] = [];
  const industrial = randomUUID();
  const provider = randomUUID();

  const project = () =>
    catchUp(testDb.db, inputProvidersProjector, {
      decode,
      publish: async (messages) => void pushes.push(...messages),
    });

  const append = (assignmentId: number, events: { type: string; data: unknown }[]) =>
    app.commands.handle({
      streams: [assignmentStreamId(assignmentId)],
      decide: () => ({
        writes: [{ streamId: assignmentStreamId(assignmentId), events }],
        result: null,
      }),
    });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
  });
  afterAll(async () => app?.close());

  it('an assignment made, then banned: its row, and seasons.inputs to the industrial and the provider each time', async () => {
    await append(5, [
      inputEvent('InputProviderAssigned', {
        assignmentId: 5,
        seasonId: 2,
        linkId: 3,
        industrialUserId: industrial,
        providerUserId: provider,
        fertilizerId: 1,
        typeId: 1,
        quantityKg: 400,
        unitAmount: 350,
        amount: 140_000,
        holdId: 'input-assignment-5',
        assignedBy: industrial,
        assignedAt: '2026-11-23T06:00:00.000Z',
      }),
    ]);
    await project();
    expect(
      await db()
        .selectFrom('season_input_providers')
        .select(['status', 'amount'])
        .where('id', '=', 5)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'ACTIVE', amount: 140_000 });
    expect(pushes).toEqual([
      { type: 'seasons.inputs', userIds: [industrial, provider], data: { seasonId: 2 } },
    ]);

    pushes.length = 0;
    await append(5, [
      inputEvent('InputProviderBanned', {
        assignmentId: 5,
        bannedBy: industrial,
        bannedAt: '2026-11-23T06:05:00.000Z',
        released: 140_000,
      }),
    ]);
    await project();
    expect(pushes).toEqual([
      { type: 'seasons.inputs', userIds: [industrial, provider], data: { seasonId: 2 } },
    ]);
    const check = await checkProjector(testDb.db, inputProvidersProjector, { decode });
    expect(check.differences).toEqual([]);
  });
});
