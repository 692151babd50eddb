import { configDefaults, defineConfig } from 'vitest/config';

/** The short bank test starts its own PostgreSQL, Redis, 2 APIs and 2 workers under faults. */
const BANK_TEST = 'scripts/src/torture/**/*.test.ts';
/** The browser tests drive Chromium against a built web app and an API of their own. */
const BROWSER_TESTS = 'web/e2e/**/*.test.ts';

/** Files run side by side in the suite: 3, or TEST_MAX_WORKERS (a whole number from 1). */
function testWorkers(): number {
  const raw = process.env.TEST_MAX_WORKERS;
  if (raw === undefined || raw === '') return 3;
  if (!/^[1-9][0-9]*$/.test(raw)) {
    throw new Error(`TEST_MAX_WORKERS must be a whole number from 1, not "${raw}"`);
  }
  return Number(raw);
}

/**
 * The bank test runs in the suite's group, as one of its TEST_MAX_WORKERS files (first: vitest
 * orders a group's projects by name), not alone after it: beside the others it takes about as
 * long as alone (much of it waits on its fault schedule), and the suite ends a minute sooner.
 * TEST_BANK_BESIDE=0 runs it alone after the rest (its faults' timings with the machine to
 * itself, e.g. to tell a load-induced timeout from a fault).
 */
const bankBeside = process.env.TEST_BANK_BESIDE !== '0';

/**
 * What every project runs with. The projects spread it rather than `extends: true`: extending
 * would also copy the root's globalSetup into each project, and vitest runs a project's global
 * setup once per project (two PostgreSQLs, two templates).
 */
const common = {
  exclude: [...configDefaults.exclude, '**/dist/**'],
  pool: 'forks' as const,
  testTimeout: 30_000,
  hookTimeout: 120_000,
  teardownTimeout: 30_000,
};

/**
 * The suite's files share one group: two projects (their isolation differs) with one
 * maxWorkers (vitest 4 refuses two figures in a group). Vitest's default on 2 cores is one file
 * at a time (cores − 1); files wait on PostgreSQL, a server, Chromium or the bank test's fault
 * schedule part of their time, so three run side by side: with two, a tenth of the machine
 * stayed idle (710 s; three: 639 s, the same CPU, the machine 98 % busy). TEST_MAX_WORKERS tries another figure on a given machine
 * without editing this file. A group's files are queued project by project, by name: the bank
 * test, the browser files (the longest), then the node files one after the other, which is
 * what lets a node worker take the next file in the same process (vitest reuses a
 * non-isolated worker only for a next file of the same project).
 */
const suiteGroup = { sequence: { groupOrder: 0 }, maxWorkers: testWorkers() };

export default defineConfig({
  test: {
    ...common,
    // The root config's global setup runs once per run, whatever projects' files run, and what
    // it provides (the PostgreSQL URL, the migrated template, Redis) reaches every project's
    // files: ONE PostgreSQL and Redis for the whole run. The bank test ignores them (it starts
    // its own); run alone it pays the few seconds of starting them.
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        test: {
          ...common,
          ...suiteGroup,
          name: 'node',
          include: [
            'platform/src/**/*.test.ts',
            'event-store/src/**/*.test.ts',
            'projections/src/**/*.test.ts',
            'services/*/src/**/*.test.ts',
            'scripts/src/**/*.test.ts',
            'web/src/**/*.test.ts',
          ],
          exclude: [...common.exclude, BANK_TEST],
          // The files of a worker share one process, one after the other, instead of a fresh
          // process each: the API's module graph is imported once per worker, not once per file
          // (about 1.4 s of a file's time on CI). A file must leave nothing running behind it
          // (servers, pools, workers, timers closed in afterAll) and no global changed
          // (environment, stubs, fake timers restored); each still gets its own database.
          isolate: false,
        },
      },
      {
        test: {
          ...common,
          ...suiteGroup,
          name: 'browser',
          include: [BROWSER_TESTS],
          // Starts the web build at the run's start, only when browser files run.
          globalSetup: ['web/e2e/support/global-setup.ts'],
          // As the node files: a worker's files share one process, so the API's and the
          // support's modules are imported once per worker instead of once per file (7-12 s
          // of a file's time on this machine, the other worker alone meanwhile). Each file
          // still starts and stops its own server, database copy, mail box and Chromium
          // (afterAll), and restores what it changes (the export settings: support/server.ts).
          isolate: false,
          // A browser test walks a user's whole task, screen after screen: up to 26 s on a
          // quiet machine, twice that when the machine is busy. The timeout catches a hang,
          // not slowness; each wait for the page keeps its own limit (support/browser.ts).
          testTimeout: 90_000,
        },
      },
      {
        // Its own process, as one of the suite's workers or alone after the rest.
        test: {
          ...common,
          name: 'bank-test',
          include: [BANK_TEST],
          ...(bankBeside ? suiteGroup : { sequence: { groupOrder: 1 } }),
        },
      },
    ],
  },
});
