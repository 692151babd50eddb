import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** What importing `file` loads, in a fresh Node process (testing/loaded-modules.ts). */
async function loadedBy(file: string): Promise<{ packages: string[]; sources: string[] }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'services/worker/src/testing/loaded-modules.ts', file],
    { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent' } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

const isFastify = (name: string) => /^(fastify|@fastify\/|fastify-)/.test(name);
const isRouteFile = (file: string) =>
  /^services\/api\/src\/[^/]+\/http\//.test(file) ||
  /^services\/api\/src\/(app|server|test-app)\.ts$/.test(file);

describe('the worker runs the modules without the HTTP app', () => {
  it('loading the API app brings in Fastify and the routes (the probe sees them)', async () => {
    const app = await loadedBy('services/api/src/app.ts');
    expect(app.packages.filter(isFastify)).toContain('fastify');
    expect(app.sources.filter(isRouteFile)).toContain('services/api/src/app.ts');
    // The routes themselves are imported lazily, when buildApp registers the modules.
    expect(app.sources).toContain('services/api/src/modules.ts');
  }, 60_000);

  it('loading the worker (its projectors, catalogue and jobs from the module list) loads no Fastify and no route file', async () => {
    const worker = await loadedBy('services/worker/src/worker.ts');
    expect(worker.sources).toContain('services/api/src/modules.ts');
    expect(worker.sources).toContain('services/api/src/wallet/read-model/index.ts');
    expect(worker.sources).toContain('services/api/src/wallet/jobs/bullmq.ts');
    expect(worker.packages.filter(isFastify)).toEqual([]);
    expect(worker.sources.filter(isRouteFile)).toEqual([]);
  }, 60_000);
});
