import type { Projector } from '@filiere/projections';
import { seasonsProjector } from './projector.js';

export { seasonReadMigrations } from './migrations/index.js';
export { seasonsProjector };

export const seasonProjectors: Projector[] = [seasonsProjector];
