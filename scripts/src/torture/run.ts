import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '@filiere/api';
import { product } from '@filiere/api/modules';
import { projectionLag } from '@filiere/projections';
import { checkInvariants, type CheckReport, type Violation } from './checker.js';
import { checkReconciliation } from './reconcile.js';
import { TORTURE_JWT_SECRET, TortureEnvironment } from './environment.js';
import { describeFault, faultSchedule, injectFaults, type InjectedFault } from './faults.js';
import { paidSupplies, type ProviderStub } from './provider-stub.js';
import { createPopulation } from './population.js';
import { setupContracts } from './contracts.js';
import { setupSeasons } from './seasons.js';
import { Workload, type Attempt, type CommandRecord } from './workload.js';

export interface TortureOptions {
  seed: number;
  /** How long the load runs (at least until every scheduled fault has been injected). */
  loadMs: number;
  aggregatorsPerCluster?: number;
  growersPerCluster?: number;
  thinkMs?: number;
  /** Longest wait for background jobs and projections after the load (default 180 s). */
  settleMs?: number;
  log?: (line: string) => void;
  /** Aborting stops the load and the faults and closes the environment (test timeouts). */
  signal?: AbortSignal;
  /** Handed the environment once created (a caller's cleanup can close it). */
  onEnvironment?: (env: TortureEnvironment) => void;
}

export interface TortureReport {
  seed: number;
  ok: boolean;
  operations: { tried: number; acknowledged: number; refused: number; unacknowledged: number };
  byCommand: Record<string, { tried: number; ack: number; refused: number; unack: number }>;
  /** Per command, how often each refusal came (status and message): why a command never passed. */
  refusals: Record<string, Record<string, number>>;
  retried: number;
  /** Every attempt's answer (HTTP status, timeout, connection), commands and reads. */
  answers: Record<string, number>;
  /** 5xx and connection errors while no fault was under way (from 5 s before a fault to 10 s after it). */
  unexplained: { what: string; atMs: number; answer: string }[];
  reads: { tried: number; failed: number; observed: number };
  /** Supplies paid or refused in the widget whose page was lost before any verify. */
  pagesLost: number;
  faults: InjectedFault[];
  check: CheckReport | undefined;
  violations: Violation[];
  runDir: string;
  durations: { startMs: number; loadMs: number; settleMs: number; checkMs: number };
}

/**
 * The bank test: starts the environment, runs the seeded workload while the fault schedule
 * is injected, lets background jobs and projections settle, then checks every invariant.
 * Everything it started is stopped before it returns or throws.
 */
export async function runTorture(options: TortureOptions): Promise<TortureReport> {
  const log = options.log ?? (() => undefined);
  const schedule = faultSchedule(options.loadMs);
  log(`seed ${options.seed} · load ${(options.loadMs / 1000).toFixed(0)} s · fault schedule:`);
  for (const fault of schedule) log(`  ${describeFault(fault)}`);

  const env = new TortureEnvironment({ log });
  options.onEnvironment?.(env);
  const aborted = () => options.signal?.aborted === true;
  options.signal?.addEventListener('abort', () => void env.close(), { once: true });
  const violations: Violation[] = [];
  const t0 = Date.now();
  let ok = false;
  try {
    await env.start();
    const population = await createPopulation(env.db, TORTURE_JWT_SECRET, {
      aggregators: options.aggregatorsPerCluster ?? 3,
      growers: options.growersPerCluster ?? 5,
    });
    const seasonsStart = Date.now();
    population.season = await setupSeasons(population, env.apiUrls[0]!, log);
    const contractsStart = Date.now();
    await setupContracts(population, env.apiUrls[0]!, log);
    const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
    log(
      `seasons set up in ${seconds(seasonsStart, contractsStart)} s, contracts (SFD financings) in ${seconds(contractsStart, Date.now())} s`,
    );
    const startMs = Date.now() - t0;
    log(
      `environment ready in ${(startMs / 1000).toFixed(1)} s; ${population.members.length + population.providers.length + 1} clients`,
    );

    const loadStart = Date.now();
    let faultsDone = false;
    const shouldStop = () => aborted() || (faultsDone && Date.now() - loadStart >= options.loadMs);
    const workload = new Workload({
      seed: options.seed,
      population,
      apiUrls: env.apiUrls,
      stub: env.stub,
      shouldStop,
      pagesLost: () => env.payerPagesLost,
      thinkMs: options.thinkMs ?? 20,
      inbox: async (phone) =>
        (
          await env.db
            .selectFrom('sms_outbox')
            .select('text')
            .where('recipient', '=', phone)
            .orderBy('id', 'desc')
            .execute()
        ).map((row) => row.text),
      contractStatus: async (contractId) =>
        (
          await env.db
            .selectFrom('delivery_contracts')
            .select('status')
            .where('id', '=', contractId)
            .executeTakeFirst()
        )?.status ?? null,
      twilio: env.twilio,
    });
    const progress = setInterval(() => {
      const n = workload.commands.length;
      log(`  … t+${((Date.now() - loadStart) / 1000).toFixed(0)} s: ${n} commands sent`);
    }, 15_000);
    const faultsRun = injectFaults(env, schedule, loadStart, log, aborted).finally(() => {
      faultsDone = true;
    });
    const [result, faults] = await Promise.all([workload.run(), faultsRun]).finally(() =>
      clearInterval(progress),
    );
    if (aborted()) throw new Error('bank test aborted');
    const loadMs = Date.now() - loadStart;
    log(`load stopped after ${(loadMs / 1000).toFixed(1)} s: ${result.commands.length} commands`);
    for (const fault of faults) {
      if (fault.error)
        violations.push({ invariant: 'fault injection', detail: `${fault.kind}: ${fault.error}` });
    }

    // A process that died on its own is a finding; restart it so that the system can settle.
    for (const child of [...env.apis, ...env.workers]) {
      if (!child.alive) {
        violations.push({
          invariant: 'processes survive faults',
          detail: `${child.name} exited on its own`,
        });
        await child.start();
      }
    }
    env.stub.mode = 'ok';
    env.payerPagesLost = false;
    // The offline client's network is back: it replays what it recorded during the faults.
    const replayed = await workload.replayOffline();
    log(
      `offline client: ${workload.offlineQueue.length} deliveries and ${workload.offlineWeighings.length} weighings queued during the load, ${replayed.filter((r) => r.outcome === 'ack').length} of ${replayed.length} replays acknowledged`,
    );
    log(`${result.pagesLost.length} supplies paid or refused with the payer's page lost`);
    const settleStart = Date.now();
    const settled = await settle(env.db, env.stub, options.settleMs ?? 180_000, log);
    const settleMs = Date.now() - settleStart;
    if (settled)
      violations.push({ invariant: 'the system settles after the load', detail: settled });
    // Growers answer the offers still waiting, now listed: the reply path runs in every run.
    const replies = await workload.replyWaiting();
    const resettled = replies
      ? await settle(env.db, env.stub, options.settleMs ?? 180_000, log)
      : undefined;
    if (resettled)
      violations.push({
        invariant: 'the system settles after the late replies',
        detail: resettled,
      });
    log(
      `settled in ${(settleMs / 1000).toFixed(1)} s; ${replies} late replies delivered; checking`,
    );

    const checkStart = Date.now();
    const check = await checkInvariants(env.db, {
      commands: result.commands,
      observations: result.observations,
      stub: env.stub,
      pagesLost: result.pagesLost,
    });
    violations.push(...check.violations);
    violations.push(...(await checkReconciliation(env.db, env.stub, env.stubUrl, log)));
    const checkMs = Date.now() - checkStart;
    ok = violations.length === 0;
    return {
      seed: options.seed,
      ok,
      ...summarise(result.commands),
      ...classifyAnswers(result.commands, result.failedReads, faults),
      reads: { ...result.reads, observed: result.observations.length },
      pagesLost: result.pagesLost.length,
      faults,
      check,
      violations,
      runDir: env.runDir,
      durations: { startMs, loadMs, settleMs, checkMs },
    };
  } finally {
    await env.close();
    if (ok) await env.removeRunDir();
  }
}

function classifyAnswers(
  commands: CommandRecord[],
  failedReads: Attempt[],
  faults: InjectedFault[],
) {
  const answers: Record<string, number> = {};
  const unexplained: TortureReport['unexplained'] = [];
  const duringFault = (atMs: number) =>
    faults.some(
      (f) => atMs >= f.startedAtMs - 5_000 && atMs <= f.startedAtMs + f.durationMs + 10_000,
    );
  const see = (what: string, attempt: Attempt) => {
    const answer = 'status' in attempt ? String(attempt.status) : attempt.error;
    answers[answer] = (answers[answer] ?? 0) + 1;
    const failed = 'status' in attempt ? attempt.status >= 500 : attempt.error === 'connection';
    if (failed && !duringFault(attempt.atMs))
      unexplained.push({ what, atMs: attempt.atMs, answer });
  };
  for (const c of commands)
    for (const a of c.attempts) see(`${c.command} of client ${c.client}`, a);
  for (const a of failedReads) see('GET /api/wallet/stats', a);
  return { answers, unexplained };
}

function summarise(commands: CommandRecord[]) {
  const operations = { tried: 0, acknowledged: 0, refused: 0, unacknowledged: 0 };
  const byCommand: TortureReport['byCommand'] = {};
  const refusals: TortureReport['refusals'] = {};
  let retried = 0;
  for (const c of commands) {
    operations.tried++;
    const row = (byCommand[c.command] ??= { tried: 0, ack: 0, refused: 0, unack: 0 });
    row.tried++;
    if (c.outcome === 'ack') {
      operations.acknowledged++;
      row.ack++;
    } else if (c.outcome === 'refused') {
      operations.refused++;
      row.refused++;
      const message = c.body?.message;
      const why = `${c.status} ${typeof message === 'string' ? message : ''}`.trim();
      const reasons = (refusals[c.command] ??= {});
      reasons[why] = (reasons[why] ?? 0) + 1;
    } else {
      operations.unacknowledged++;
      row.unack++;
    }
    if (c.attempts.length > 1) retried++;
  }
  return { operations, byCommand, refusals, retried };
}

/**
 * Waits until the background jobs are done (every withdrawal paid or refunded, every supply
 * the provider was paid for credited, whether or not a page reported it) and every
 * projector's checkpoint is at the head. Returns why it did not, or undefined. The checks of
 * supplies nobody paid stay open (until their abandon delay, 30 min): they are not waited for.
 */
async function settle(
  db: Kysely<Database>,
  stub: ProviderStub,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  let why = '';
  let nextLog = Date.now() + 10_000;
  for (;;) {
    try {
      const { rows } = await sql<{ n: string }>`
        select count(*) as n from wallet_jobs where kind = 'PAYOUT'`.execute(db);
      const jobs = Number(rows[0]?.n ?? 0);
      const paid = [...paidSupplies(stub).keys()];
      const credited = await sql<{ n: string }>`
        select count(distinct data->>'reference') as n from events
        where type = 'SupplyCredited' and data->>'reference' = any(${paid}::text[])`.execute(db);
      const uncredited = paid.length - Number(credited.rows[0]?.n ?? 0);
      // Contract runs: every leased job done (a dead runner's job is taken again after its lease).
      const runs = await sql<{ n: string }>`select count(*) as n from contract_jobs`.execute(db);
      const contractJobs = Number(runs.rows[0]?.n ?? 0);
      // A withdrawal debited whose job was lost (a process killed, or PostgreSQL restarted,
      // between its commit and its job insert) is not settled until the workers' recovery
      // sweep (every minute) gives it its job back and the job runs.
      const unsettled = await sql<{ n: string }>`
        select count(*) as n from events debited
        where debited.type = 'WithdrawalDebited'
          and not exists (
            select 1 from events settled
            where settled.stream_id = 'withdrawal-' || (debited.data->>'withdrawalId')
              and settled.type in ('WithdrawalCompleted', 'WithdrawalFailed'))`.execute(db);
      const withdrawals = Number(unsettled.rows[0]?.n ?? 0);
      const lag = await projectionLag(
        db,
        product.projectors.map((p) => p.name),
      );
      const behind = Object.entries(lag.projectors).filter(([, p]) => p.checkpoint < lag.head);
      if (
        jobs === 0 &&
        uncredited === 0 &&
        contractJobs === 0 &&
        withdrawals === 0 &&
        behind.length === 0
      )
        return undefined;
      why = `${jobs} payout jobs left, ${uncredited} paid supplies not credited, ${contractJobs} contract jobs left, ${withdrawals} withdrawals unsettled; ${behind.map(([n, p]) => `${n} at ${p.checkpoint}/${lag.head}${p.lastError ? ` (${p.lastError})` : ''}`).join(', ') || 'projections at head'}`;
    } catch (error) {
      why = `database: ${(error as Error).message}`;
    }
    if (Date.now() > deadline) return `not settled after ${timeoutMs / 1000} s: ${why}`;
    if (Date.now() > nextLog) {
      log(`  … settling: ${why}`);
      nextLog = Date.now() + 10_000;
    }
    await sleep(500);
  }
}
