import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventCatalogue } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp, checkProjector, type PushMessage } from '@filiere/projections';
import type { Database } from '../../../database.js';
import { buildTestApp } from '../../../test-app.js';
import { requestEvents } from '../catalogue.js';
import {
  requestEvent,
  requestReference,
  requestStreamId,
  type RequestState,
} from '../domain/index.js';
import { seasonRequestsProjector } from './projector.js';

const decode = catalogueDecoder(new EventCatalogue(requestEvents));

describe('season_requests read model (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  const pushes: PushMessage[] = [];
  const industrial = randomUUID();
  const grower = randomUUID();
  const growerUser = randomUUID();
  const provider = randomUUID();

  const project = () =>
    catchUp(testDb.db, seasonRequestsProjector, {
      decode,
      publish: async (messages) => void pushes.push(...messages),
    });

  const append = (requestId: number, events: { type: string; data: unknown }[]) =>
    app.commands.handle({
      streams: [requestStreamId(requestId)],
      decide: () => ({ writes: [{ streamId: requestStreamId(requestId), events }], result: null }),
    });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
  });
  afterAll(async () => app?.close());

  it('folds filed → accepted (code) → delivered, and filed → rejected; a replay gives the same rows', async () => {
    const filed = (requestId: number) =>
      requestEvent('GrowerRequestFiled', {
        requestId,
        reference: requestReference(requestId),
        type: 'INPUT',
        seasonId: 1,
        linkId: 3,
        industrialUserId: industrial,
        sfdUserId: null,
        growerId: grower,
        growerUserId: growerUser,
        fertilizerId: 2,
        quantityKg: 40,
        amount: 14_000,
        filedBy: growerUser,
        filedAt: '2026-11-22T10:00:00.000Z',
      });
    await append(1, [filed(1)]);
    await append(2, [filed(2)]);
    await append(1, [
      requestEvent('GrowerRequestAccepted', {
        requestId: 1,
        acceptedBy: industrial,
        acceptedAt: '2026-11-22T11:00:00.000Z',
        code: 'AGW_123456',
        debtId: null,
        transferId: null,
      }),
      requestEvent('InputDelivered', {
        requestId: 1,
        assignmentId: 7,
        providerUserId: provider,
        amount: 14_000,
        debtId: 'input-1',
        deliveredBy: provider,
        deliveredAt: '2026-11-23T09:00:00.000Z',
      }),
    ]);
    await append(2, [
      requestEvent('GrowerRequestRejected', {
        requestId: 2,
        reason: 'Stock épuisé',
        rejectedBy: industrial,
        rejectedAt: '2026-11-22T12:00:00.000Z',
      }),
    ]);
    await project();
    const rows = await db().selectFrom('season_requests').selectAll().orderBy('id').execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      reference: 'DEM-000001',
      status: 'CONFIRMED',
      code: 'AGW_123456',
      delivery_status: 'DONE',
      provider_user_id: provider,
      assignment_id: 7,
      amount: 14_000,
      quantity_kg: 40,
    });
    expect(rows[0]!.received_at?.toISOString()).toBe('2026-11-23T09:00:00.000Z');
    expect(rows[1]).toMatchObject({ status: 'REJECTED', reason: 'Stock épuisé', code: null });
    expect(pushes.filter((p) => p.type === 'seasons.request')).toHaveLength(2);
    expect(pushes.find((p) => p.type === 'seasons.requestUpdated')?.userIds).toEqual([
      growerUser,
      industrial,
    ]);
    // The provider that delivered it is told too (its deliveries list turns 'Validée').
    const delivered = pushes.find(
      (p) =>
        p.type === 'seasons.requestUpdated' &&
        (p.data as { status: string }).status === 'DELIVERED',
    );
    expect(delivered?.userIds).toEqual([growerUser, industrial, provider]);
    const check = await checkProjector(testDb.db, seasonRequestsProjector, { decode });
    expect(check.differences).toEqual([]);
  });

  it('the stream folds the same way (deliveries read it)', async () => {
    const state = (
      await app.commands.handle({
        streams: [requestStreamId(1)],
        decide: (states) => ({ writes: [], result: states[requestStreamId(1)]!.state }),
      })
    ).result as RequestState;
    expect(state).toMatchObject({
      exists: true,
      status: 'CONFIRMED',
      type: 'INPUT',
      amount: 14_000,
      delivery: { status: 'DONE', code: 'AGW_123456', assignmentId: 7, debtId: 'input-1' },
    });
  });
});
