import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../../test-app.js';
import type { Database } from '../../../database.js';

describe('the wallet command routes in the OpenAPI document', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists every command with its body and the Idempotency-Key header', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const [path, method] of [
      ['/api/wallet/make-transfer', 'post'],
      ['/api/wallet/make-debit/{id}', 'post'],
      ['/api/financement', 'post'],
      ['/api/supply', 'post'],
      ['/api/supply/verify/{transactionId}', 'get'],
      ['/api/supply/validate-bank-supply/{id}', 'get'],
      ['/api/supply/validate-bank-supply', 'post'],
      ['/api/sandbox/pay/{reference}', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const transfer = doc.paths['/api/wallet/make-transfer'].post;
    expect(transfer.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'idempotency-key', in: 'header' })]),
    );
    expect(transfer.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['source', 'destination', 'amount', 'reason']),
    );
  });
});
