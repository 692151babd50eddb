declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the test PostgreSQL server (its `postgres` database). */
    pgAdminUrl: string;
    /** A database with every migration applied, copied for each test file. */
    pgTemplate: string;
    /** A Redis server for the tests, or '' when there is none. */
    redisUrl: string;
    /** Why there is no Redis, when there is none. */
    redisMissingReason: string;
  }
}
export {};
