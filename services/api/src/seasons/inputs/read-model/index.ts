import type { Projector } from '@filiere/projections';
import { inputProvidersProjector } from './projector.js';

export { inputReadMigrations } from './migrations/index.js';
export { inputProvidersProjector };

export const inputProjectors: Projector[] = [inputProvidersProjector];
