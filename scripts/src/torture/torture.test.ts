import { afterAll, describe, expect, it } from 'vitest';
import { findRedisServer } from '@filiere/platform';
import { isCI } from '@filiere/platform/testing';
import { faultSchedule, type FaultKind } from './faults.js';
import { ClientPlan } from './plan.js';
import { formatReport } from './report.js';
import { runTorture, type TortureReport } from './run.js';
import type { TortureEnvironment } from './environment.js';

/** The short bank test's seed: fixed so that CI replays one sequence; TORTURE_SEED overrides. */
const SEED = Number(process.env.TORTURE_SEED ?? 20261122);
const ALL_FAULTS: FaultKind[] = [
  'kill-api',
  'kill-worker',
  'restart-postgres',
  'stop-redis',
  'provider-timeout',
  'provider-500',
  'lose-payer-page',
];

describe('the bank test plan', () => {
  it('gives the same operation sequence for the same seed, another for another seed', () => {
    const ops = (seed: number) => {
      const plan = new ClientPlan(seed, 3, 'ROLE_INDUSTRIAL');
      return Array.from({ length: 200 }, () => plan.next());
    };
    expect(ops(7)).toEqual(ops(7));
    expect(ops(7)).not.toEqual(ops(8));
  });

  it('schedules each fault at least once, without overlap, inside the load', () => {
    for (const loadMs of [75_000, 600_000]) {
      const schedule = faultSchedule(loadMs);
      expect(new Set(schedule.map((f) => f.kind))).toEqual(new Set(ALL_FAULTS));
      for (let i = 1; i < schedule.length; i++) {
        expect(schedule[i]!.atMs - schedule[i - 1]!.atMs).toBeGreaterThanOrEqual(12_000);
      }
    }
    expect(faultSchedule(600_000).length).toBeGreaterThan(ALL_FAULTS.length);
  });
});

const redis = findRedisServer();
const describeBank = redis || isCI ? describe : describe.skip;
if (!redis && !isCI) {
  console.warn('[skipped] the bank test needs redis-server on PATH (it stops and starts it).');
}

function expectHeld(report: TortureReport) {
  expect(report.violations, `seed ${SEED}: ${report.violations[0]?.detail}`).toEqual([]);
  expect(report.operations.tried + report.reads.tried).toBeGreaterThanOrEqual(2_000);
  expect(new Set(report.faults.map((f) => f.kind))).toEqual(new Set(ALL_FAULTS));
  expect(report.operations.acknowledged).toBeGreaterThan(0);
  expect(report.operations.refused).toBeGreaterThan(0);
  // Payers left their page right after the widget: only the server's own check credited them.
  expect(report.pagesLost).toBeGreaterThan(0);
  // The contracts joined the mix: created, confirmed, delivered and run under the faults, and
  // weighed and paid at the scale in one step.
  for (const command of [
    'create-contract',
    'confirm-contract',
    'record-delivery',
    'run-contracts',
    'weigh-and-pay',
  ])
    expect(report.byCommand[command]?.ack ?? 0, command).toBeGreaterThan(0);
  // Cooperatives entered wrong codes too (refused, counted toward the code's lock).
  expect(
    Object.keys(report.refusals['confirm-contract'] ?? {}).some((r) =>
      r.includes('Code incorrect'),
    ),
    JSON.stringify(report.refusals['confirm-contract']),
  ).toBe(true);
  // Growers accepted contracts by SMS reply through the Twilio webhook (signed, some twice at
  // once with one MessageSid, some with a wrong code), during the load and after it.
  expect(report.byCommand['reply-contract']?.ack ?? 0).toBeGreaterThan(0);
  // The offline client weighed at the scale without network and replayed it after the faults.
  expect(report.byCommand['offline-weigh']?.tried ?? 0).toBeGreaterThan(0);
}

describeBank('the bank test under faults (short variant)', () => {
  // A timed-out test is abandoned, not stopped: abort it and close what it started.
  const controller = new AbortController();
  let environment: TortureEnvironment | undefined;
  afterAll(async () => {
    controller.abort();
    await environment?.close();
  });

  it('runs ≥ 2,000 operations through 2 APIs and 2 workers, survives every fault, and every invariant holds', async () => {
    if (!redis) throw new Error('CI=true and redis-server is missing: the bank test needs it');
    const lines: string[] = [];
    const report = await runTorture({
      seed: SEED,
      loadMs: 60_000,
      // Each client pauses 0-400 ms between operations: about 5,400 commands alone on a 2-core
      // machine, well over the 2,000 asserted. Without a pause the clients sent 13,600 and the
      // test took the CPU of 1.3 cores for 2.5 minutes from the suite's other file.
      thinkMs: 400,
      settleMs: 75_000,
      // TORTURE_VERBOSE=1 prints the log as it goes (where the time went when it times out).
      log: (line) => {
        lines.push(line);
        if (process.env.TORTURE_VERBOSE) console.log(`[torture] ${line}`);
      },
      signal: controller.signal,
      onEnvironment: (env) => (environment = env),
    });
    // Any failed expectation prints the run's log and report (refusals by reason among them).
    try {
      expectHeld(report);
    } catch (error) {
      console.error(`${lines.join('\n')}\n${formatReport(report)}`);
      throw error;
    }
    // A guard against a hang, not a timing: the load is 60 s (the seven faults' schedule
    // stretches it to about 90 s) and the settling at most 75 s;
    // beside another test file (vitest.config.ts) setup and checks take longer than alone.
  }, 240_000);
});
