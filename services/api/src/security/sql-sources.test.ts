import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const WORKSPACES = [
  'platform/src',
  'event-store/src',
  'projections/src',
  'services',
  'scripts/src',
];

/**
 * Every place SQL text is spliced in rather than bound, each justified in
 * docs/security.md ("SQL"). None takes a value of a request.
 */
const JUSTIFIED: Record<string, string> = {
  'event-store/src/schema/20261121_0100_events.ts: sql.raw':
    'migration: a constant CREATE FUNCTION body',
  'event-store/src/schema/20261121_0101_append_with_hashes.ts: sql.raw':
    'migration: a constant CREATE FUNCTION body',
  'event-store/src/schema/20261121_0102_append_hint_miss.ts: sql.raw':
    'migration: a constant CREATE FUNCTION body',
  'event-store/src/schema/20261201_0103_append_json_payloads.ts: sql.raw':
    'migration: a constant CREATE FUNCTION body',
  'event-store/src/schema/20261202_0104_read_guards.ts: sql.raw':
    'migration: a constant CREATE FUNCTION body',
  'services/api/src/identity/migrations/20261121_0300_identity.ts: sql.lit':
    'migration: the constant list of organization types in a CHECK',
  'services/api/src/actors/carriers/migrations/20261125_0620_carriers.ts: sql.lit':
    'migration: the constant list of vehicle types in a CHECK',
  'platform/src/testing/database.ts: query(`…${}`)':
    'tests: CREATE/DROP DATABASE of a generated name (t_<uuid>), identifiers cannot be bound',
  'projections/src/pg-listen.ts: query(`…${}`)':
    'LISTEN of a channel name from code, quoted with pg.escapeIdentifier',
  'services/api/src/kernel/references.ts: sql.lit':
    "a movement code's length (CODE_DIGITS), a constant of code",
  'services/api/src/wallet/export/cursor-pages.ts: sql.raw':
    'FETCH count: a number from code (page size), FETCH takes no parameter',
  'services/api/src/reconciliation/commands/run.ts: sql.raw':
    'FETCH count: a number from code (PAGE), FETCH takes no parameter',
};

const PATTERNS: [string, RegExp][] = [
  ['sql.raw', /\bsql\s*\.\s*raw\s*\(/],
  ['sql.lit', /\bsql\s*\.\s*lit\s*\(/],
  ['sql.raw', /^\s*\.raw\s*\(/m],
  ['query(`…${}`)', /\.query\(\s*`[^`]*\$\{/],
];

async function* sources(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}

describe('SQL is built through Kysely parameters', () => {
  it('raw SQL splices (sql.raw, sql.lit, query with ${…}) are only the justified ones', async () => {
    const found = new Set<string>();
    for (const workspace of WORKSPACES) {
      for await (const file of sources(path.join(ROOT, workspace))) {
        const text = await readFile(file, 'utf8');
        const rel = path.relative(ROOT, file).replaceAll(path.sep, '/');
        for (const [name, re] of PATTERNS) if (re.test(text)) found.add(`${rel}: ${name}`);
      }
    }
    const unjustified = [...found].filter(
      (f) =>
        !(f in JUSTIFIED) &&
        // Scripts and benchmarks create and drop their own databases by generated name.
        !/^(scripts\/src|services\/api\/src\/security\/fuzz-cli)/.test(f),
    );
    expect(unjustified, 'justify each in docs/security.md and JUSTIFIED').toEqual([]);
  });
});
