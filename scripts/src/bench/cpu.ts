import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) of each live process, with its name, at one instant. */
export type CpuSnapshot = Map<number, { name: string; seconds: number }>;

/**
 * Every live descendant of `root` (default: this process; itself excluded), from /proc.
 * The benches start PostgreSQL, the API, Redis and workers as descendants, so this is the
 * server side while `process.cpuUsage()` is the load generator's.
 */
export function descendantsCpu(root = process.pid): CpuSnapshot {
  const parent = new Map<number, number>();
  const all: CpuSnapshot = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      all.set(Number(entry), {
        name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        seconds: (Number(fields[11]) + Number(fields[12])) / 100, // utime + stime, USER_HZ
      });
    } catch {
      // the process ended meanwhile
    }
  }
  const result: CpuSnapshot = new Map();
  for (const [pid, cpu] of all) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root && pid !== root) {
        result.set(pid, cpu);
        break;
      }
    }
  }
  return result;
}

/**
 * CPU seconds used between two snapshots, by process name, over the processes alive at
 * the second one (a process started meanwhile counts whole; one that ended is lost), but
 * those of `exclude` (the load generator's own PostgreSQL backends: see benchBackends).
 */
export function cpuBetween(
  before: CpuSnapshot,
  after: CpuSnapshot,
  exclude: ReadonlySet<number> = new Set(),
): Record<string, number> {
  const total: Record<string, number> = {};
  for (const [pid, cpu] of after) {
    if (exclude.has(pid)) continue;
    const used = cpu.seconds - (before.get(pid)?.seconds ?? 0);
    total[cpu.name] = (total[cpu.name] ?? 0) + Math.max(0, used);
  }
  return total;
}

/** CPU seconds used so far by this process. */
export function ownCpuSeconds(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6;
}
