import type { TestSeed } from '@filiere/platform/testing';
import { createLogger } from '@filiere/platform';
import type { Database } from '@filiere/api';
import { loadDemoData } from './load.js';

/**
 * The whole product's demo as `npm start` loads it (and projects it), as a test seed: loaded
 * once per test run into a template that every test file wanting the whole demo copies (the
 * browser files, the demo loader's own test), a database of its own each. The demo writes
 * dates relative to today (UTC and Porto-Novo), so the template is per day of both.
 */
export function demoSeed(): TestSeed<Database> {
  const now = Date.now();
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
  const portoNovo = now + 60 * 60 * 1000; // UTC+1 all year
  return {
    name: `demo_${day(now)}_${day(portoNovo)}`,
    // The loader projects what it loaded: every copy starts from read tables that hold the
    // whole demo (a test that counts rows before it adds its own would otherwise race the
    // server's first catch-up).
    load: async (db) => {
      await loadDemoData({ db, logger: createLogger('silent', false) });
    },
  };
}
