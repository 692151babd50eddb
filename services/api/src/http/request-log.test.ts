import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, type Logger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedUser } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import type { Database } from '../database.js';

function capturingLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    logger: pino(loggerOptions('info', false), stream),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('request log', () => {
  const testDb = useTestDatabase<Database>();

  it('writes one line per request: id, user, method, path without the query, status, duration', async () => {
    const { logger, lines } = capturingLogger();
    const app = await buildTestApp(testDb.db, { logger });
    const token = app.jwt.sign({ sub: 'user-1', role: 'ROLE_ADMIN' });
    await app.inject({
      method: 'GET',
      url: '/api/health?token=secret-in-query',
      headers: { 'x-request-id': 'req-42', authorization: `Bearer ${token}` },
    });
    await app.inject({ method: 'GET', url: '/api/nope' });
    await app.close();

    const requests = lines().filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      reqId: 'req-42',
      method: 'GET',
      url: '/api/health',
      statusCode: 200,
      level: 30,
    });
    expect(typeof requests[0]!.durationMs).toBe('number');
    expect(requests[1]).toMatchObject({ url: '/api/nope', statusCode: 404 });
    expect(JSON.stringify(lines())).not.toContain('secret-in-query');
    expect(JSON.stringify(lines())).not.toContain(token);
  });

  it('names the signed-in user', async () => {
    const { logger, lines } = capturingLogger();
    const app = await buildTestApp(testDb.db, { logger });
    app.get('/api/log-probe', { preHandler: app.authenticate }, async () => ({ ok: true }));
    // The guard loads the user: the token must be of a user that exists.
    const user = await seedUser(testDb.db, 'ROLE_ADMIN');
    const token = app.jwt.sign({ sub: user.id, role: 'ROLE_ADMIN' });
    const res = await app.inject({
      method: 'GET',
      url: '/api/log-probe',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    await app.close();
    expect(lines().find((l) => l.msg === 'request')).toMatchObject({
      userId: user.id,
      url: '/api/log-probe',
      statusCode: 200,
    });
  });

  it('writes nothing above its level', async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    const app = await buildTestApp(testDb.db, {
      logger: pino(loggerOptions('warn', false), stream),
    });
    await app.inject({ method: 'GET', url: '/api/health' });
    await app.close();
    expect(chunks.join('')).not.toContain('"msg":"request"');
  });
});
