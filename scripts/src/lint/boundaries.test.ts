import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the ESLint config is plain JavaScript, without declarations
import { contextCycles, contextGraph } from '../../../eslint.config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** The boundary messages ESLint gives `code` as if it were the file at `file`. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries (eslint.config.js, run by npm run lint)', () => {
  it('the engine imports no service: projections/ and event-store/ cannot import the API', async () => {
    expect(
      await boundaryErrors(
        'projections/src/fixture.ts',
        "export { product } from '@filiere/api/modules';",
      ),
    ).toEqual([expect.stringContaining('not a dependency of projections/package.json')]);
    expect(
      await boundaryErrors(
        'event-store/src/fixture.ts',
        "export { walletModule } from '@filiere/api/wallet';",
      ),
    ).toEqual([expect.stringContaining('not a dependency of event-store/package.json')]);
    expect(
      await boundaryErrors(
        'projections/src/fixture.ts',
        "export { EventStore } from '@filiere/event-store';",
      ),
    ).toEqual([]);
  });

  it('a context reaches another context only through its index.ts, and never into the app', async () => {
    const file = 'services/api/src/wallet/commands/fixture.ts';
    expect(
      await boundaryErrors(
        file,
        "export { IdentityRepository } from '../../identity/repository.js';",
      ),
    ).toEqual([expect.stringContaining("another context's internals")]);
    expect(
      await boundaryErrors(file, "export { findDemoUser } from '../../identity/index.js';"),
    ).toEqual([]);
    expect(await boundaryErrors(file, "export { buildApp } from '../../app.js';")).toEqual([
      expect.stringContaining('the app is built from the contexts'),
    ]);
    expect(
      await boundaryErrors(
        file,
        "export { walletCatalogue } from '../read-model/test-support.js';",
      ),
    ).toEqual([]);
  });

  it("a context's core loads no route and no Fastify; its http/ folder may", async () => {
    const core = 'services/api/src/wallet/fixture.ts';
    expect(await boundaryErrors(core, "export { registerWallet } from './http/index.js';")).toEqual(
      [expect.stringContaining('loaded only through its module')],
    );
    expect(
      await boundaryErrors(core, "import Fastify from 'fastify';\nexport { Fastify };"),
    ).toEqual([expect.stringContaining('Fastify is loaded by http/ folders only')]);
    expect(
      await boundaryErrors(
        core,
        "import type { FastifyInstance } from 'fastify';\nexport type { FastifyInstance };",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'services/api/src/wallet/http/fixture.ts',
        "import rateLimit from '@fastify/rate-limit';\nexport { rateLimit };",
      ),
    ).toEqual([]);
  });

  it('the kernel imports no context; the worker imports the module list, not the app', async () => {
    expect(
      await boundaryErrors(
        'services/api/src/kernel/fixture.ts',
        "export { walletModule } from '../wallet/index.js';",
      ),
    ).toEqual([expect.stringContaining('below the contexts')]);
    const worker = 'services/worker/src/fixture.ts';
    expect(await boundaryErrors(worker, "export { buildApp } from '@filiere/api';")).toEqual([
      expect.stringContaining('@filiere/api/modules only'),
    ]);
    expect(await boundaryErrors(worker, "export { product } from '@filiere/api/modules';")).toEqual(
      [],
    );
  });

  it('no relative import into another workspace', async () => {
    expect(
      await boundaryErrors(
        'services/api/src/wallet/export/fixture.ts',
        "export { writeBenchmarkSection } from '../../../../../scripts/src/bench/report.js';",
      ),
    ).toEqual([expect.stringContaining('into another workspace')]);
  });

  it('kernel/ imports nothing above it, the HTTP plumbing included', async () => {
    expect(
      await boundaryErrors(
        'services/api/src/kernel/fixture.ts',
        "export type { ReadinessCheck } from '../http/health.js';",
      ),
    ).toEqual([expect.stringContaining('kernel/ is the bottom of the API')]);
    expect(
      await boundaryErrors(
        'services/api/src/http/fixture.ts',
        "export type { ReadinessCheck } from '../kernel/app-deps.js';",
      ),
    ).toEqual([]);
  });
});

describe('no cycle between contexts (eslint.config.js reads the graph from the sources)', () => {
  type Graph = Record<string, Set<string>>;
  const cyclesOf = (graph: Graph) =>
    (contextCycles(graph) as { from: string; to: string; cycle: string[] }[]).map(
      (edge) => `${edge.from}→${edge.to}: ${edge.cycle.join(' → ')}`,
    );

  it("the contexts' imports form no cycle: every edge points one way", () => {
    const graph = contextGraph() as Graph;
    expect(cyclesOf(graph)).toEqual([]);
    // Identity is below the wallet: the wallet's deletion check reaches it through a port.
    expect([...graph.identity!]).toEqual([]);
    expect([...graph.wallet!]).toEqual(['identity']);
  });

  it('an import that closes a cycle is refused at both ends, with the cycle named', () => {
    const graph: Graph = {
      identity: new Set(),
      wallet: new Set(['identity']),
      seasons: new Set(['wallet', 'identity']),
    };
    expect(cyclesOf(graph)).toEqual([]);
    graph.identity!.add('seasons');
    expect(cyclesOf(graph)).toEqual([
      'identity→seasons: identity → seasons → identity',
      'seasons→identity: seasons → identity → seasons',
      'seasons→wallet: seasons → wallet → identity → seasons',
      'wallet→identity: wallet → identity → seasons → wallet',
    ]);
  });
});
