import { existsSync, readFileSync, statSync } from 'node:fs';
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
