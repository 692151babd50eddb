import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const README = path.join(ROOT, 'README.md');

describe('README.md', () => {
  it('stays a front page: at most 8 KB, the details in docs/', () => {
    expect(statSync(README).size).toBeLessThanOrEqual(8 * 1024);
  });

  it('opens with the two commands, and every file it links or shows exists', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme).toMatch(/^# Filière\n\n```bash\n[^`]*npm start[^`]*npm test/);
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(10);
    const missing = targets.filter((t) => !/^https?:/.test(t) && !existsSync(path.join(ROOT, t)));
    expect(missing).toEqual([]);
  });
});

/** The folders whose text describes the product: docs, the README and the sources. */
const DESCRIBED = [
  'README.md',
  'docs',
  'platform',
  'event-store',
  'projections',
  'services',
  'web/src',
  'web/e2e',
  'scripts/src',
];
const TEXT = /\.(md|ts|tsx)$/;
const SKIP = new Set(['node_modules', 'dist', '.data']);

function textFiles(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!statSync(full).isDirectory()) return TEXT.test(entry) ? [entry] : [];
  return readdirSync(full).flatMap((name) =>
    SKIP.has(name) ? [] : textFiles(path.join(entry, name)),
  );
}

describe('the manual and the code comments', () => {
  it('describe the product as it is, not the issues that built it (git keeps that)', () => {
    const worklog = /\bissues? ?#?\d+\b|\bsince issue\b/i;
    const offenders = DESCRIBED.flatMap(textFiles).flatMap((file) =>
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (worklog.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
