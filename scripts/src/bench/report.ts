import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCHMARKS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../docs/benchmarks.md',
);

/**
 * Replaces the section of docs/benchmarks.md that starts with `heading`
 * (e.g. '## Wallet') by `lines`, or appends it; other sections stay as they are.
 */
export async function writeBenchmarkSection(heading: string, lines: string[]): Promise<void> {
  const current = await readFile(BENCHMARKS_FILE, 'utf8');
  const start = current.indexOf(heading);
  let next: string;
  if (start < 0) {
    next = `${current.trimEnd()}\n\n${lines.join('\n')}`;
  } else {
    const after = current.indexOf('\n## ', start + 1);
    const tail = after < 0 ? '' : `\n${current.slice(after + 1)}`;
    next = `${current.slice(0, start)}${lines.join('\n')}${tail}`;
  }
  await writeFile(BENCHMARKS_FILE, next);
  process.stdout.write(`Written to ${path.relative(process.cwd(), BENCHMARKS_FILE)}\n`);
}
