import { describe, expect, it } from 'vitest';
import { HUB_MESSAGES, modules } from '@filiere/api/modules';
import { INVALIDATIONS } from './invalidations.js';

/**
 * The web's typed table and the server's declarations can never drift: a push type a module
 * declares (services/api/src/<context>/index.ts `pushes`, which its publishing code is typed
 * against) must say here what it refreshes, and the table names nothing the server does not send.
 */
describe('realtime: the typed table mirrors the server', () => {
  const declared = modules.flatMap((module) => module.pushes ?? []);

  it('has exactly the hub messages and the push types the modules declare', () => {
    expect(Object.keys(INVALIDATIONS).sort()).toEqual([...HUB_MESSAGES, ...declared].sort());
  });

  it('no two modules (nor a module and the hub) declare the same push type', () => {
    const all = [...HUB_MESSAGES, ...declared];
    expect(all.filter((type, i) => all.indexOf(type) !== i)).toEqual([]);
  });
});
