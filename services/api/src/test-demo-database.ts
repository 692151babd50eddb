import { createHash } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '@filiere/platform';
import {
  createSeededTestDatabase,
  type TestDatabase,
  type TestSeed,
} from '@filiere/platform/testing';
import type { Database } from './database.js';
import type { DemoStep } from './kernel/index.js';
import { product } from './modules.js';
import { loadDemoSteps } from './test-app.js';

/**
 * Registers beforeAll/afterAll hooks giving the test file its own database holding the
 * product's demo up to the step `lastStep` (the demo steps in the module list's order, as
 * the demo loader runs them). The first file of the run asking for that demo builds a
 * template with it, once; every file then copies the template (a file copy in PostgreSQL)
 * instead of running the demo's commands again. The copy is the file's own: its tests may
 * change the data freely.
 */
export function useDemoDatabase(lastStep: string): TestDatabase<Database> {
  const end = product.demo.findIndex((step) => step.name === lastStep);
  if (end < 0) throw new Error(`no demo step named "${lastStep}"`);
  const steps = product.demo.slice(0, end + 1);
  return useSeededDatabase(demoSeed(steps, String(steps.length)));
}

/**
 * As useDemoDatabase, with the demo steps `steps` (in their order) rather than a prefix of the
 * module list: files loading the same steps share one template of them.
 */
export function useDemoStepsDatabase(steps: readonly DemoStep[]): TestDatabase<Database> {
  const names = steps.map((step) => step.name).join(',');
  // Five hex digits: never a step count, and the seed's name stays within its 24 characters.
  const tag = createHash('sha256').update(names).digest('hex').slice(0, 5);
  return useSeededDatabase(demoSeed(steps, tag));
}

function useSeededDatabase(seed: TestSeed<Database>): TestDatabase<Database> {
  const handle = {} as TestDatabase<Database>;
  beforeAll(async () => {
    Object.assign(handle, await createSeededTestDatabase<Database>(seed));
  }, 300_000);
  afterAll(async () => {
    await handle.drop?.();
  });
  return handle;
}

/**
 * The demo steps `steps`, named by `tag` (what tells them apart) and by the day: the demo
 * writes dates relative to today (UTC and Porto-Novo), so the template is per day of both.
 */
function demoSeed(steps: readonly DemoStep[], tag: string): TestSeed<Database> {
  const now = Date.now();
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
  const portoNovo = day(now + 60 * 60 * 1000); // UTC+1 all year
  return {
    name: `demo${tag}_${day(now)}_${portoNovo.slice(4)}`,
    load: async (db) => {
      await loadDemoSteps({ db, logger: createLogger('silent', false) }, steps);
    },
  };
}
