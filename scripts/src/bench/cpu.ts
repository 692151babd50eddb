import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) used so far by every live descendant of `root`
 * (default: this process; the process itself excluded), from /proc. The bench
 * starts PostgreSQL, the API, Redis and workers as its descendants, so this is
 * the server side's CPU while this process's own `process.cpuUsage()` is the
 * load generator's. Processes that ended are not counted.
 */
export function descendantsCpuSeconds(root = process.pid): number {
  return Object.values(descendantsCpuByName(root)).reduce((a, b) => a + b, 0);
}

/** The same, by process name (`node`, `postgres`, `redis-server`, …). */
export function descendantsCpuByName(root = process.pid): Record<string, number> {
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process ended meanwhile
    }
  }
  const total: Record<string, number> = {};
  for (const [pid, t] of ticks) {
    if (pid === root) continue;
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        const name = names.get(pid)!;
        total[name] = (total[name] ?? 0) + t / 100; // USER_HZ
        break;
      }
    }
  }
  return total;
}

/** `after - before`, per name. */
export function cpuDelta(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after).map(([name, s]) => [name, s - (before[name] ?? 0)]),
  );
}

/** CPU seconds used so far by this process. */
export function ownCpuSeconds(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6;
}
