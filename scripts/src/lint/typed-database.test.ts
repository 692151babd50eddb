import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every workspace that talks to the database (web does not). */
const SOURCES = [
  'platform/src',
  'event-store/src',
  'projections/src',
  'services/api/src',
  'services/worker/src',
  'scripts/src',
];

/**
 * An untyped Kysely: the type with `any` for its database, or a pool opened that way.
 * Migrations keep it (they create the tables the types describe, and run before them).
 */
const UNTYPED = /\bKysely<\s*any\s*[,>]|\bcreateDb<\s*any\s*>/;
const isMigration = (file: string) => file.split('/').includes('migrations');

/**
 * Files not typed yet, each
 * named so that nothing is excluded silently. Type them (their tables beside their
 * migrations, `narrowDb<…>()(db)`, see docs/architecture.md) and remove them from here:
 * the check fails while a file listed here is typed, so the list only shrinks.
 */
const PENDING: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const untyped = SOURCES.flatMap(sourceFiles).filter(
  (file) => !isMigration(file) && UNTYPED.test(readFileSync(path.join(root, file), 'utf8')),
);

/**
 * A test database opened without naming its tables: `useTestDatabase` or `createTestDatabase`
 * called with no type argument (or the bare `TestDatabase` type) would be an untyped Kysely
 * again. The web's browser tests open one too, so they are scanned as well.
 */
// A type named in an import list (`import { type TestDatabase, … }`) opens no database.
const UNTYPED_TEST_DB =
  /\b(?:use|create)TestDatabase\s*\(\s*\)|(?<!\btype\s+)\bTestDatabase\b(?!\s*<)(?=\s*[;,)=\]|])/;
const testDbFiles = [...SOURCES, 'web/e2e'].flatMap(sourceFiles);
const untypedTestDb = testDbFiles.filter((file) =>
  UNTYPED_TEST_DB.test(readFileSync(path.join(root, file), 'utf8')),
);

/** A type parameter defaulting to any (`<DB = any>`) lets a caller leave its tables unnamed. */
const ANY_DEFAULT = /=\s*any\s*[,>]/;
const anyDefaults = sourceFiles('platform/src/testing').filter((file) =>
  ANY_DEFAULT.test(readFileSync(path.join(root, file), 'utf8')),
);

describe('typed database: every Kysely outside migrations names its tables', () => {
  it('finds untyped Kyselys (the check bites)', () => {
    const any = 'any'; // spelled apart, so that this file does not match itself
    expect(UNTYPED.test(`constructor(private readonly db: Kysely<${any}>) {}`)).toBe(true);
    expect(UNTYPED.test(`const dbs: Kysely< ${any} >[] = [];`)).toBe(true);
    expect(UNTYPED.test(`const db = createDb<${any}>(url);`)).toBe(true);
    expect(UNTYPED.test('function f<DB extends WalletDb>(db: Kysely<DB>) {}')).toBe(false);
    expect(UNTYPED.test('const db: Kysely<Database> = createDb<Database>(url);')).toBe(false);
    expect(isMigration('services/api/src/wallet/migrations/20261121_0400_wallet_jobs.ts')).toBe(
      true,
    );
  });

  it('finds test databases opened without their tables (the check bites)', () => {
    const call = '()'; // spelled apart, so that this file does not match itself
    const end = ';';
    expect(UNTYPED_TEST_DB.test(`const t = useTestDatabase${call};`)).toBe(true);
    expect(UNTYPED_TEST_DB.test(`const db = await createTestDatabase${'( )'};`)).toBe(true);
    expect(UNTYPED_TEST_DB.test(`  db: TestDatabase${end}`)).toBe(true);
    expect(UNTYPED_TEST_DB.test(`async function f(db: TestDatabase${')'}: Promise<void> {}`)).toBe(
      true,
    );
    expect(UNTYPED_TEST_DB.test('const t = useTestDatabase<Database>();')).toBe(false);
    expect(UNTYPED_TEST_DB.test('const db = await createTestDatabase<Database>();')).toBe(false);
    expect(UNTYPED_TEST_DB.test('  db: TestDatabase<Database>;')).toBe(false);
    expect(UNTYPED_TEST_DB.test('import { type TestDatabase, useTestDatabase } from')).toBe(false);
    expect(UNTYPED_TEST_DB.test('export interface TestDatabase<DB extends object> {')).toBe(false);
    const any = 'any';
    expect(ANY_DEFAULT.test(`export function useTestDatabase<DB = ${any}>() {}`)).toBe(true);
    expect(ANY_DEFAULT.test('export function useTestDatabase<DB extends object>() {}')).toBe(false);
  });

  it('every test database names its tables (a type argument on each call)', () => {
    expect(untypedTestDb).toEqual([]);
  });

  it('the test database helpers have no type parameter defaulting to any', () => {
    expect(anyDefaults).toEqual([]);
  });

  it('no source file outside migrations takes an untyped Kysely', () => {
    expect(untyped.filter((file) => !PENDING.includes(file))).toEqual([]);
  });

  it('every file still listed as pending is untyped (remove the typed ones from PENDING)', () => {
    expect(PENDING.filter((file) => !untyped.includes(file))).toEqual([]);
  });
});
