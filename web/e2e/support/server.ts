import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@filiere/api';
import { createLogger, parseConfig } from '@filiere/platform';
import { pgPushSource, type PushSource } from '@filiere/projections';
import { createSeededTestDatabase, type TestDatabase } from '@filiere/platform/testing';
import { DEMO_PASSWORD, demoAccounts } from '@filiere/api/identity';
import { demoSeed } from '../../../scripts/src/demo/seed.js';
import {
  startProjectionDispatch,
  type ProjectionDispatch,
} from '../../../services/api/src/realtime/projections.js';
import { exportSettings } from '../../../services/api/src/wallet/http/queries/export.routes.js';
import { builtWebCopy } from './build.js';
import { freePort } from './free-port.js';
import { startMailBox, type MailBox } from './mail.js';
import type { Database } from '@filiere/api';

/** Background exports of the test server: a lower sync limit, slower and smaller pages. */
export interface E2eExportOptions {
  syncLimit?: number;
  pageSize?: number;
  pageDelayMs?: number;
  progressMs?: number;
}

export interface E2eServer {
  baseUrl: string;
  mail: MailBox;
  db: TestDatabase<Database>;
  /** Password of the demo accounts. */
  password: string;
  /** The running API (a test drives a context's services through it, e.g. a clock). */
  app: FastifyInstance;
  /** The server's private copy of the web build (a test may deploy a next version into it). */
  webDir: string;
  stop(): Promise<void>;
}

/**
 * The real product for a browser: built web app, API on its own test
 * database, in-process projectors whose pushes reach the websocket hub (as in
 * `npm start`), a real SMTP server collecting mails, and the demo accounts.
 */
export async function startE2eServer(
  options: { exports?: E2eExportOptions } = {},
): Promise<E2eServer> {
  // The web copy (the run's first file builds the app), the database (the run's first file
  // loads the demo into the template) and the mail box are independent: made side by side.
  const [web, db, mail] = await allOrNothing(
    [builtWebCopy(), createSeededTestDatabase<Database>(demoSeed()), freePort().then(startMailBox)],
    [(w) => w.remove(), (d) => d.drop(), (m) => m.close()],
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), 'filiere-e2e-data-'));
  const restoreExports = { ...exportSettings, runner: { ...exportSettings.runner } };
  if (options.exports) {
    const { syncLimit, ...runner } = options.exports;
    if (syncLimit !== undefined) exportSettings.syncLimit = syncLimit;
    exportSettings.runner = runner;
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logger = createLogger('silent', false);
  let app: FastifyInstance | undefined;
  let projections: ProjectionDispatch | undefined;
  let pushes: PushSource | undefined;
  const stopAll = async () => {
    await app?.close();
    await projections?.close();
    await pushes?.close();
    await mail.close();
    await db.drop();
    web.remove();
    Object.assign(exportSettings, restoreExports);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const password = await ensureDemoAccounts(db);
    const config = parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: baseUrl,
      SMTP_URL: mail.url,
      DATA_DIR: dataDir,
      // The browser contexts name their client in X-Forwarded-For (support/browser.ts).
      TRUST_PROXY: 'loopback',
    });
    pushes = pgPushSource(db.url);
    // The projectors on this thread, not the API's background thread: the same dispatcher
    // (startInProcessProjections) without a second copy of the API's modules to load per file
    // (1.5-4 CPU-s each); the thread itself is background-thread.test.ts's subject.
    projections = startProjectionDispatch({
      config,
      db: db.db,
      logger,
      databaseUrl: db.url,
      thread: false,
    });
    app = await buildApp({
      config,
      db: db.db,
      logger,
      webDir: web.dir,
      realtime: { pushes },
      ...(projections.thread ? { backgroundThread: projections.thread } : {}),
    });
    await app.listen({ port, host: '127.0.0.1' });
    return {
      baseUrl,
      mail,
      db,
      password,
      app,
      webDir: web.dir,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * Awaits every start; when one fails, undoes those that succeeded (with the undo at the same
 * index) and throws the first failure.
 */
async function allOrNothing<T extends unknown[]>(
  starts: { [K in keyof T]: Promise<T[K]> },
  undo: { [K in keyof T]: (started: T[K]) => unknown },
): Promise<T> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (!failed) return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as T;
  await Promise.all(
    settled.map(async (s, i) => {
      if (s.status === 'fulfilled') await (undo[i] as (started: unknown) => unknown)(s.value);
    }),
  ).catch(() => undefined);
  throw failed.reason;
}

/**
 * Until the identity demo step is in `demoSteps`, seed the demo accounts the
 * way the identity tests do (their test password); afterwards use the demo data.
 */
async function ensureDemoAccounts(db: TestDatabase<Database>): Promise<string> {
  const found = await db.db
    .selectFrom('users')
    .select('email')
    .where('email', '=', 'superadmin@demo.filiere.bj')
    .executeTakeFirst();
  if (found) return DEMO_PASSWORD;
  const { seedUser, TEST_PASSWORD } =
    await import('../../../services/api/src/identity/test-support.js');
  for (const account of demoAccounts) {
    await seedUser(db.db, account.role, { email: account.email });
  }
  return TEST_PASSWORD;
}
