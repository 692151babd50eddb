import type { Projector } from '@filiere/projections';
import { seasonRequestsProjector } from './projector.js';

export { requestReadMigrations } from './migrations/index.js';
export { seasonRequestsProjector };

export const requestProjectors: Projector[] = [seasonRequestsProjector];
