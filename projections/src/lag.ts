import type { Kysely } from 'kysely';
import { readCheckpoints } from './checkpoints.js';
import { readHead } from './events.js';
import type { ProjectionTables } from './migrations/tables.js';

export interface ProjectorLag {
  checkpoint: number;
  head: number;
  lag: number;
  lastError?: string;
}

/**
 * Each projector's checkpoint against the event log's head: the `names` given
 * (a projector never run is at 0) and, unless `only`, every checkpoint row.
 */
export async function projectionLag<DB extends ProjectionTables>(
  db: Kysely<DB>,
  names: string[],
  opts: { only?: boolean } = { only: true },
): Promise<{ head: number; projectors: Record<string, ProjectorLag> }> {
  const [head, checkpoints] = await Promise.all([readHead(db), readCheckpoints(db)]);
  const byName = new Map(checkpoints.map((c) => [c.name, c]));
  const projectors: Record<string, ProjectorLag> = {};
  const all = opts.only ? names : [...new Set([...names, ...byName.keys()])].sort();
  for (const name of all) {
    const cp = byName.get(name);
    const checkpoint = cp?.position ?? 0;
    projectors[name] = {
      checkpoint,
      head,
      lag: Math.max(0, head - checkpoint),
      ...(cp?.lastError ? { lastError: cp.lastError } : {}),
    };
  }
  return { head, projectors };
}
