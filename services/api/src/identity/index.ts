import type { FastifyInstance } from 'fastify';
import type { MigrationSet } from '@filiere/platform';

/** Identity and access: organisations, users, roles, clusters (issue 4 fills this in). */
export const identityMigrations: MigrationSet = {};

export async function registerIdentity(_app: FastifyInstance): Promise<void> {}
