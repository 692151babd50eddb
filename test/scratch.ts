import { existsSync, mkdirSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import path from 'node:path';

/** Where Linux keeps a tmpfs for every user: files there live in memory. */
const MEMORY_FS = '/dev/shm';
/** A run's files at their largest: its PostgreSQL with its WAL, Chromium's profiles, exports. */
const ROOM_NEEDED = 4 * 1024 ** 3;
const PREFIX = 'filiere-test-';

/**
 * The test run's temporary files (its PostgreSQL cluster, Chromium's profiles, every
 * `os.tmpdir()` of the tests and the processes they start) go to a folder of its own in
 * memory when the machine has a tmpfs with room for them: the suite creates and drops a
 * database per file (about 1,000 files each), and on a journal-less ext4 each new file then
 * scans past the inodes freed in the last minutes (`recently_deleted`), so a copy of the
 * migrated template cost 0.3–0.8 CPU-seconds of kernel time on disk once the run had churned
 * it, against 0.06 s in memory. What must outlive the run goes elsewhere
 * (FILIERE_TEST_REPORTS_DIR, global-setup.ts). TMPDIR set by the caller wins; so does a
 * machine without /dev/shm or with less than 4 GiB free there.
 *
 * Returns the folder and a function that removes it, or undefined when the run keeps the
 * usual temporary folder. Folders left by killed runs (their process gone) are removed first.
 */
export function memoryScratch(): { dir: string; remove: () => void } | undefined {
  if (process.env.TMPDIR || process.platform !== 'linux' || !existsSync(MEMORY_FS)) {
    return undefined;
  }
  try {
    const { bavail, bsize } = statfsSync(MEMORY_FS);
    if (bavail * bsize < ROOM_NEEDED) return undefined;
    for (const name of readdirSync(MEMORY_FS)) {
      const owner = Number(name.slice(PREFIX.length));
      if (name.startsWith(PREFIX) && Number.isInteger(owner) && !isAlive(owner)) {
        rmSync(path.join(MEMORY_FS, name), { recursive: true, force: true });
      }
    }
    const dir = path.join(MEMORY_FS, `${PREFIX}${process.pid}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
