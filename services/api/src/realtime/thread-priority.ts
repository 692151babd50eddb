import { readlinkSync } from 'node:fs';
import os from 'node:os';

/**
 * Lowers the calling thread's scheduling priority to `nice` (Linux: a thread is a task with
 * its own nice value, named by its id in /proc/thread-self). Answers the thread's nice value
 * afterwards, or null where that cannot be done (another system, a refused call): the thread
 * then simply runs at the process's priority.
 */
export function lowerThreadPriority(nice: number): number | null {
  if (nice <= 0) return null;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    os.setPriority(tid, Math.min(19, Math.max(os.getPriority(tid), nice)));
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
