import type { FastifyInstance } from 'fastify';

/** The wallet's read routes over projected tables (filled in by the read-side work). */
export async function registerWalletQueries(_app: FastifyInstance): Promise<void> {}
