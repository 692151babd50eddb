import { configDefaults, defineConfig } from 'vitest/config';

/** The short bank test starts its own PostgreSQL, Redis, 2 APIs and 2 workers under faults. */
const BANK_TEST = 'scripts/src/torture/**/*.test.ts';

/** Files run side by side in the suite: 2, or TEST_MAX_WORKERS (a whole number from 1). */
function testWorkers(): number {
  const raw = process.env.TEST_MAX_WORKERS;
  if (raw === undefined || raw === '') return 2;
  if (!/^[1-9][0-9]*$/.test(raw)) {
    throw new Error(`TEST_MAX_WORKERS must be a whole number from 1, not "${raw}"`);
  }
  return Number(raw);
}

/**
 * The bank test runs in the suite's group, as one of its TEST_MAX_WORKERS files (first: vitest
 * orders a group's projects by name), not alone after it: CI run 24 had it green beside the
 * suite in 141 s (129 s alone in run 23), and the suite ends about a minute sooner.
 * TEST_BANK_BESIDE=0 runs it alone after the rest (its faults' timings with the machine to
 * itself, e.g. to tell a load-induced timeout from a fault).
 */
const bankBeside = process.env.TEST_BANK_BESIDE !== '0';

export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, '**/dist/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: [
            'platform/src/**/*.test.ts',
            'event-store/src/**/*.test.ts',
            'projections/src/**/*.test.ts',
            'services/*/src/**/*.test.ts',
            'scripts/src/**/*.test.ts',
            'web/src/**/*.test.ts',
            'web/e2e/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, '**/dist/**', BANK_TEST],
          globalSetup: ['test/global-setup.ts'],
          sequence: { groupOrder: 0 },
          // Vitest's default on 2 cores is one file at a time (cores − 1); most files wait on
          // PostgreSQL, a server or Chromium rather than compute, so two run side by side.
          // TEST_MAX_WORKERS tries another figure on a given machine without editing this file.
          maxWorkers: testWorkers(),
        },
      },
      {
        // Run alone, after the rest: its faults and timings are its own, not the suite's load.
        extends: true,
        test: {
          name: 'bank-test',
          include: [BANK_TEST],
          // A group's projects share one maxWorkers (vitest 4 refuses two figures in a group).
          ...(bankBeside
            ? { sequence: { groupOrder: 0 }, maxWorkers: testWorkers() }
            : { sequence: { groupOrder: 1 } }),
        },
      },
    ],
  },
});
