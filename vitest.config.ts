import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'platform/src/**/*.test.ts',
      'event-store/src/**/*.test.ts',
      'projections/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'scripts/src/**/*.test.ts',
      'web/src/**/*.test.ts',
      'web/e2e/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
