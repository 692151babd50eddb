import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const API_SRC = 'services/api/src';

/**
 * A query on identity's `users` table: a Kysely call naming it, or SQL text reading it.
 * Other contexts read users through identity's public face (`identityUsers()`, a derived
 * table of the columns they may see; identity/public.ts), never the table itself.
 */
const USERS_TABLE = [
  /\b(?:selectFrom|innerJoin|leftJoin|rightJoin|fullJoin|updateTable|insertInto|deleteFrom)\(\s*'(?:public\.)?users(?:\s+as\s+\w+)?'/,
  /\b(?:from|join|update|into)\s+(?:public\.)?users\b(?!\s*\()(?=\s+(?:\w+\s+)?(?:on|where|set|join|left|inner|order|group|limit|\)|$))/im,
];

/**
 * Files of other contexts that still query `users` directly, each named so that nothing is
 * excluded silently. Empty: every read goes through identity's public face and every write
 * through one of identity's functions, so a new direct query fails the check.
 */
const PENDING: readonly string[] = [];

/**
 * Identity owns the table; tests and the security tests' tooling (security/) seed it;
 * migrations run before the types hold.
 */
const exempt = (file: string) =>
  file.startsWith(`${API_SRC}/identity/`) ||
  file.startsWith(`${API_SRC}/security/`) ||
  /\.test\.ts$|(^|\/)test-[^/]*\.ts$|\/testing\//.test(file) ||
  file.split('/').includes('migrations');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The API's files (contexts, plumbing, app) that query identity's `users` table. */
function readersOfUsers(): string[] {
  return sourceFiles(API_SRC)
    .filter((file) => !exempt(file))
    .filter((file) => {
      const text = readFileSync(path.join(root, file), 'utf8');
      return USERS_TABLE.some((pattern) => pattern.test(text));
    })
    .sort();
}

describe("identity's users are read through its public face", () => {
  it('no file outside identity queries the users table, but those still listed', () => {
    expect(readersOfUsers()).toEqual([...PENDING].sort());
  });

  it('finds a query on the table, in Kysely or in SQL text', () => {
    const finds = (text: string) => USERS_TABLE.some((pattern) => pattern.test(text));
    expect(finds("db.selectFrom('users').select('id')")).toBe(true);
    expect(finds(".innerJoin('users as u', 'u.id', 'g.user_id')")).toBe(true);
    expect(finds('sql`select u.id from users u join roles r on r.id = u.role_id`')).toBe(true);
    expect(finds('sql`select id from public.users where id = ${id}`')).toBe(true);
    expect(finds(".innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')")).toBe(false);
    expect(finds('// the wallet reads from users through identity')).toBe(false);
  });
});
