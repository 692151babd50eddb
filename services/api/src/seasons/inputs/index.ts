import { mergeMigrations } from '@filiere/platform';
import type { SeasonsArea } from '../area.js';
import { assignmentStream, inputEvents } from './catalogue.js';
import { inputsDemoStep } from './demo/inputs.js';
import { inputWriteMigrations } from './migrations/index.js';
import { inputProjectors, inputReadMigrations } from './read-model/index.js';
import { INPUT_PUSHES } from './read-model/projector.js';

/**
 * Input providers assigned to an industrial's season link (the spec's userClusterIP), each
 * with a hold on the industrial's wallet: streams `seasoninput-<id>`, read table
 * `season_input_providers` (block 20261126_01NN).
 */
export const inputsArea: SeasonsArea = {
  name: 'season-inputs',
  migrations: mergeMigrations(inputWriteMigrations, inputReadMigrations),
  events: inputEvents,
  streams: [assignmentStream],
  projectors: inputProjectors,
  pushes: INPUT_PUSHES,
  demo: [inputsDemoStep],
  http: async () => (await import('./http/index.js')).registerInputs,
};

// The area's face for the deliveries area.
export type { InputsTables } from './tables.js';
export {
  assignmentHoldId,
  assignmentStreamId,
  type AreaDecision,
  type AreaWrite,
  type AssignmentState,
} from './domain/index.js';
export { runWithFacts, StaleFactsError } from './commands/run.js';
export { inputsDb, type InputsDb, type InputsDbTables } from './db.js';
export { assignmentStream } from './catalogue.js';
export { assignmentsOfLink } from './commands/input-commands.js';
export { assignmentReference } from './queries.js';
