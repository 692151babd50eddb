import type { Projector } from '@filiere/projections';
import { contractsProjector } from './projector.js';

export { contractReadMigrations } from './migrations/index.js';
export { contractsProjector };

export const contractProjectors: Projector[] = [contractsProjector];
