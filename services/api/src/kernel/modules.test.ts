import { describe, expect, it } from 'vitest';
import type { ContextModule, DemoStep } from './module.js';
import { assembleProduct } from './modules.js';

const step = (name: string, after?: string): DemoStep => ({
  name,
  ...(after ? { after } : {}),
  run: async () => {},
});

const context = (name: string, demo: DemoStep[]): ContextModule => ({
  name,
  events: [],
  migrations: {},
  projectors: [],
  demo,
});

describe('the product’s demo steps', () => {
  it('run in module order, a step naming another in `after` right behind it', () => {
    const product = assembleProduct([
      context('a', [step('a1'), step('a2', 'c1'), step('a3', 'c1')]),
      context('b', [step('b1')]),
      context('c', [step('c1'), step('c2')]),
    ]);
    expect(product.demo.map((s) => s.name)).toEqual(['a1', 'b1', 'c1', 'a2', 'a3', 'c2']);
  });

  it('leaves the demo out of a part of the product, whose steps may follow absent ones', () => {
    const part = assembleProduct([context('a', [step('a1'), step('a2', 'c1')])], { demo: false });
    expect(part.demo).toEqual([]);
  });

  it('refuses a step after one no module has', () => {
    expect(() => assembleProduct([context('a', [step('a1', 'nowhere')])])).toThrow(
      'Demo step a1 runs after nowhere, which no module has',
    );
  });
});
