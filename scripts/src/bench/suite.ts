import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBenchmarkSection } from './report.js';

/**
 * `npm run bench:suite`: runs the test suite as `npm test` does (`vitest run`, the same
 * environment) and tells where its time goes: its wall time, the CPU-seconds of the processes
 * it started by kind (Node, Chromium, PostgreSQL, Redis, others), the machine's CPU not spent
 * by them (other tenants), and its slowest files. The suite is CPU-bound on 2 cores, so the
 * CPU-seconds are the figure to compare between runs; the wall time follows them and the load.
 *
 * Writes docs/benchmarks.md's 'Test suite' section: this run's figures, and a row added to
 * the section's history table (kept from the file). BENCH_SUITE_ARGS passes extra arguments
 * to vitest (e.g. a path to measure part of the suite; such a run is not written).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const HEADING = '## Test suite';
const SAMPLE_MS = 500;
const TICKS = 100; // USER_HZ on Linux: /proc's CPU times are in 1/100 s.

type Kind = 'Node' | 'Chromium' | 'PostgreSQL' | 'Redis' | 'other';

function kindOf(comm: string): Kind {
  if (comm === 'postgres') return 'PostgreSQL';
  if (comm.startsWith('redis')) return 'Redis';
  if (/chrom|headless/i.test(comm)) return 'Chromium';
  if (/^(node|npm|vitest|esbuild|tsx|MainThread)/.test(comm)) return 'Node';
  return 'other';
}

/**
 * What a process of the run did, from its command line: the rows of the table of where the
 * CPU went (a kind split finer, by what the suite asked of it).
 */
function roleOf(pid: number, comm: string): string {
  let line = '';
  try {
    line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    // Ended before it was read: named by its kind.
  }
  const kind = kindOf(comm);
  if (kind === 'Chromium') return `Chromium ${/--type=([a-z-]+)/.exec(line)?.[1] ?? 'browser'}`;
  if (kind !== 'Node') return kind;
  if (/vitest\/dist\/workers\//.test(line)) return "vitest's workers (the test files)";
  if (/vitest(\.mjs)? run|\.bin\/vitest/.test(line))
    return "vitest's main process (the web build included)";
  if (line.includes('scripts/src/start.ts')) return '`npm start` (start.test.ts)';
  if (/services\/(api|worker)\/src\/main\.ts/.test(line)) return 'API and worker processes';
  return 'other Node processes';
}

interface Proc {
  /** The pid with its start time: pids are reused (32,768 of them) within a run. */
  key: string;
  comm: string;
  ppid: number;
  ticks: number;
}

/** Every process's parent, CPU so far (utime + stime, in ticks) and command name. */
function processes(): Map<number, Proc> {
  const found = new Map<number, Proc>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // Fields 4, 14, 15 and 22 of stat (ppid, utime, stime, starttime) are 1, 11, 12 and 19
      // after the command's ')'.
      found.set(Number(entry), {
        key: `${entry}:${fields[19]}`,
        comm,
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return found;
}

/** The machine's busy and total CPU ticks (every core) from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const values = cpu!.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = values[3]! + values[4]!;
  return { busy: total - idle, total };
}

const extraArgs = (process.env.BENCH_SUITE_ARGS ?? '').split(' ').filter(Boolean);
const machine0 = machineTicks();
const load0 = os.loadavg()[0]!;
const started = Date.now();
/**
 * Per process of the run (the vitest child and its descendants, once seen one of them even
 * when its parent has ended since): its kind and the most CPU seen (ticks).
 */
const seen = new Map<string, { kind: Kind; comm: string; role: string; ticks: number }>();
let rootPid = -1;
const sample = () => {
  const all = processes();
  const ofRun = (pid: number): boolean => {
    for (let at = pid, hops = 0; at > 1 && hops < 64; hops += 1) {
      const proc = all.get(at);
      if (!proc) return false;
      if (at === rootPid || seen.has(proc.key)) return true;
      at = proc.ppid;
    }
    return false;
  };
  for (const [pid, p] of all) {
    if (!ofRun(pid)) continue;
    const known = seen.get(p.key);
    if (!known)
      seen.set(p.key, {
        kind: kindOf(p.comm),
        comm: p.comm,
        role: roleOf(pid, p.comm),
        ticks: p.ticks,
      });
    else if (p.ticks > known.ticks) known.ticks = p.ticks;
  }
};
const timer = setInterval(sample, SAMPLE_MS);
let output = '';
const code = await new Promise<number>((resolve) => {
  const child = spawn('npx', ['vitest', 'run', ...extraArgs], {
    cwd: root,
    env: { ...process.env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  rootPid = child.pid ?? -1;
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  child.on('close', (status) => resolve(status ?? 1));
});
sample();
clearInterval(timer);
const wall = (Date.now() - started) / 1000;
const machine1 = machineTicks();
const load1 = os.loadavg()[0]!;

const cpuByKind = new Map<Kind, number>();
for (const { kind, ticks } of seen.values()) {
  cpuByKind.set(kind, (cpuByKind.get(kind) ?? 0) + ticks / TICKS);
}
const suiteCpu = [...cpuByKind.values()].reduce((a, b) => a + b, 0);
const cpuByRole = new Map<string, number>();
for (const { role, ticks } of seen.values()) {
  cpuByRole.set(role, (cpuByRole.get(role) ?? 0) + ticks / TICKS);
}
const machineBusy = (machine1.busy - machine0.busy) / TICKS;
const capacity = (machine1.total - machine0.total) / TICKS;

const plain = output.replace(new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g'), '');
const count = (label: string) => {
  const line = new RegExp(`^\\s*${label}\\s+(.*)$`, 'm').exec(plain)?.[1] ?? '';
  const failed = /(\d+) failed/.exec(line)?.[1];
  const total = /\((\d+)\)/.exec(line)?.[1] ?? /(\d+) passed/.exec(line)?.[1];
  return {
    total: total ? Number(total).toLocaleString('en') : '?',
    failed: failed ? Number(failed) : 0,
  };
};
const files = count('Test Files');
const tests = count('Tests');
const vitestSeconds = Number(/Duration\s+([\d.]+)s/.exec(plain)?.[1] ?? NaN);

/** Each file's own time as vitest reports it, by project. */
const fileTimes = [
  ...plain.matchAll(/^\s*[✓❯×]\s+(\S+)\s+(\S+\.test\.ts)\s+\((\d+) tests?[^)]*\)\s+(\d+)ms/gm),
].map((m) => ({ project: m[1]!, file: m[2]!, seconds: Number(m[4]) / 1000 }));
const byProject = new Map<string, { files: number; seconds: number }>();
for (const f of fileTimes) {
  const p = byProject.get(f.project) ?? { files: 0, seconds: 0 };
  byProject.set(f.project, { files: p.files + 1, seconds: p.seconds + f.seconds });
}
const slowest = [...fileTimes].sort((a, b) => b.seconds - a.seconds).slice(0, 10);

const s = (n: number) => `${Math.round(n).toLocaleString('en')} s`;
const summary = [
  `files ${files.total}${files.failed ? ` (${files.failed} failed)` : ''}`,
  `tests ${tests.total}${tests.failed ? ` (${tests.failed} failed)` : ''}`,
  `wall ${s(wall)} (vitest ${s(vitestSeconds)})`,
  `suite CPU ${s(suiteCpu)}`,
  `machine busy ${s(machineBusy)} of ${s(capacity)}`,
].join(', ');
process.stdout.write(`\nbench:suite: ${summary}, exit ${code}\n`);
for (const [kind, cpu] of cpuByKind) process.stdout.write(`  ${kind}: ${s(cpu)}\n`);
for (const [role, cpu] of [...cpuByRole].sort((a, b) => b[1] - a[1]))
  process.stdout.write(`    ${role}: ${s(cpu)}\n`);
const byComm = new Map<string, number>();
for (const { comm, ticks } of seen.values())
  byComm.set(comm, (byComm.get(comm) ?? 0) + ticks / TICKS);
process.stdout.write(
  `  by process name: ${[...byComm]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([comm, cpu]) => `${comm} ${s(cpu)}`)
    .join(', ')}\n`,
);

if (extraArgs.length > 0) {
  process.stdout.write('A partial run (BENCH_SUITE_ARGS): docs/benchmarks.md left as it is.\n');
  process.exit(code);
}

const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const commit = await readFile(path.join(root, '.git/HEAD'), 'utf8')
  .then(async (head) => {
    const ref = /^ref: (.*)$/m.exec(head)?.[1];
    return ref ? (await readFile(path.join(root, '.git', ref), 'utf8')).trim() : head.trim();
  })
  .catch(() => 'unknown');
const machineLine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const others = Math.max(0, machineBusy - suiteCpu);

const current = await readFile(path.join(root, 'docs/benchmarks.md'), 'utf8');
const section = current.slice(current.indexOf(HEADING));
const sectionEnd = section.indexOf('\n## ', 1);
const historyRows = (sectionEnd < 0 ? section : section.slice(0, sectionEnd))
  .split('\n')
  .filter((line) => /^\| \d{4}-\d{2}-\d{2}/.test(line));
const verdict = code === 0 ? 'green' : `${files.failed} file(s) failed`;
historyRows.push(
  `| ${date.slice(0, 10)} | ${os.cpus().length}-core, load ${load0.toFixed(1)} → ${load1.toFixed(1)} | ${files.total} | ${tests.total} | ${s(wall)} | ${s(suiteCpu)} | ${s(others)} | ${verdict}, ${commit.slice(0, 7)} |`,
);

const kinds: Kind[] = ['Node', 'Chromium', 'PostgreSQL', 'Redis', 'other'];
await writeBenchmarkSection(HEADING, [
  HEADING,
  '',
  'Measured by `npm run bench:suite` (`scripts/src/bench/suite.ts`): `npm test`’s run' +
    ' (`vitest run`, every file, the short bank test beside the others) with the CPU-seconds of' +
    ' every process it started, by kind, sampled from `/proc` every half second. The suite is' +
    ' CPU-bound on 2 cores (three files at a time), so its CPU-seconds are the figure to compare;' +
    ' its wall time follows them, and the CPU other tenants of the machine took. Target: ≤ 8' +
    ' minutes (480 s) on this 2-core machine.',
  '',
  "The suite's shape: one PostgreSQL and one Redis for the run (fsync off), the run's" +
    " temporary files (that PostgreSQL's included) in memory (`/dev/shm`), a migrated template" +
    ' each node file copies, a template with the whole demo each browser file copies, the web app' +
    " built once by the browser project's global setup (brotli quality 5), node files sharing" +
    " their worker's process (`isolate: false`), browser files on Chromium's headless shell with" +
    ' one browser per worker, and the short bank test (its own PostgreSQL, Redis, 2 APIs and 2' +
    ' workers under faults, its clients pausing 0–400 ms between operations) beside the others.' +
    ' Three files run at a time: with two, a tenth of the machine stayed idle while files' +
    " waited on PostgreSQL, a server, Chromium or the bank test's fault schedule.",
  '',
  `Last run: ${date} UTC, ${machineLine}, commit ${commit.slice(0, 7)}, 1-min load average` +
    ` ${load0.toFixed(1)} → ${load1.toFixed(1)}; ${files.total} files, ${tests.total} tests, ${verdict}.`,
  '',
  '| Figure | Value |',
  '| --- | --- |',
  `| Wall time of \`vitest run\` | ${s(wall)} |`,
  `| CPU of the suite's processes | ${s(suiteCpu)} (${(suiteCpu / wall).toFixed(2)} cores on average) |`,
  ...kinds
    .filter((k) => (cpuByKind.get(k) ?? 0) > 0)
    .map((k) => `| — ${k} | ${s(cpuByKind.get(k) ?? 0)} |`),
  `| CPU of the machine's other tenants | ${s(others)} |`,
  ...[...byProject].map(
    ([project, p]) =>
      `| Files of the ${project} project (their own time, summed) | ${p.files} files, ${s(p.seconds)} |`,
  ),
  '',
  'Where the CPU went, by what each process did for the suite (the test files run in vitest’s' +
    ' workers, with the API each browser file starts and the Playwright client driving Chromium):',
  '',
  '| Process | CPU |',
  '| --- | --- |',
  ...[...cpuByRole]
    .sort((a, b) => b[1] - a[1])
    .filter(([, cpu]) => cpu >= 0.5)
    .map(([role, cpu]) => `| ${role} | ${s(cpu)} |`),
  '',
  'Slowest files (their own time as vitest reports it, set-up hooks included):',
  '',
  '| File | Project | Seconds |',
  '| --- | --- | --- |',
  ...slowest.map((f) => `| \`${f.file}\` | ${f.project} | ${f.seconds.toFixed(1)} |`),
  '',
  'History (one row per `npm run bench:suite`; rows before it were read from whole `npm test`' +
    ' runs, without the CPU split):',
  '',
  '| date | machine | files | tests | wall | suite CPU | other tenants | result |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...historyRows,
  '',
]);
process.exit(code);
