import { EventCatalogue, eventStoreMigrations, type StreamType } from '@filiere/event-store';
import { mergeMigrations, platformMigrations, type MigrationSet } from '@filiere/platform';
import { projectionMigrations, type Projector } from '@filiere/projections';
import type { ContextModule, DemoStep, JobModule } from './module.js';

/**
 * What the list of modules adds up to. Checked once when built: names are unique, and
 * every event type a projector handles is in the catalogue (a projector waiting for a type
 * nobody defines would never see it).
 */
export interface Product {
  modules: readonly ContextModule[];
  /** Every context's event types: what the pipeline encodes and every reader decodes. */
  catalogue: EventCatalogue;
  projectors: readonly Projector[];
  streams: readonly StreamType[];
  jobs: readonly JobModule[];
  demo: readonly DemoStep[];
  /** The engine's tables (platform, event store, checkpoints) and every context's. */
  migrations: MigrationSet;
}

export function assembleProduct(
  modules: readonly ContextModule[],
  options: { demo?: boolean } = {},
): Product {
  unique(
    'context',
    modules.map((m) => m.name),
  );
  const catalogue = buildCatalogue(modules);
  const projectors = modules.flatMap((m) => m.projectors);
  unique(
    'projector',
    projectors.map((p) => p.name),
  );
  for (const projector of projectors) {
    for (const type of projector.eventTypes) {
      if (!catalogue.get(type)) {
        throw new Error(`Projector ${projector.name} handles ${type}, which no module defines`);
      }
    }
  }
  const jobs = modules.flatMap((m) => m.jobs ?? []);
  unique(
    'job',
    jobs.map((j) => j.name),
  );
  // A part of the product (the ledger tools' replay of some contexts) loads no demo: its steps
  // may follow steps of contexts it leaves out.
  const demo = options.demo === false ? [] : demoOrder(modules.flatMap((m) => m.demo ?? []));
  unique(
    'demo step',
    demo.map((s) => s.name),
  );
  return {
    modules,
    catalogue,
    projectors,
    streams: modules.flatMap((m) => m.streams ?? []),
    jobs,
    demo,
    migrations: mergeMigrations(
      platformMigrations,
      eventStoreMigrations,
      projectionMigrations,
      ...modules.map((m) => m.migrations),
    ),
  };
}

/**
 * The demo steps in module order, each step naming another in `after` moved right behind it
 * (several behind one keep their module order). A step after an unknown one is an error.
 */
function demoOrder(steps: readonly DemoStep[]): DemoStep[] {
  const ordered = steps.filter((s) => !s.after);
  const placed = new Set<DemoStep>(ordered);
  let moved = true;
  while (moved) {
    moved = false;
    for (const step of steps) {
      if (placed.has(step)) continue;
      const at = ordered.findIndex((s) => s.name === step.after);
      if (at < 0) continue;
      let end = at + 1;
      while (end < ordered.length && ordered[end]!.after === step.after) end++;
      ordered.splice(end, 0, step);
      placed.add(step);
      moved = true;
    }
  }
  const lost = steps.find((s) => !placed.has(s));
  if (lost) throw new Error(`Demo step ${lost.name} runs after ${lost.after}, which no module has`);
  return ordered;
}

/** The catalogue of the modules' event types (a type defined twice is an error). */
export function buildCatalogue(modules: readonly ContextModule[]): EventCatalogue {
  return new EventCatalogue(modules.flatMap((m) => m.events));
}

function unique(what: string, names: string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new Error(`Two ${what}s are named ${name}`);
    seen.add(name);
  }
}
