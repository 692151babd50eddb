import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'filiere-start-stop-'));

/** The processes of a process group, with their command lines. */
function groupMembers(pgid: number): { pid: number; args: string }[] {
  const ps = spawnSync('ps', ['-o', 'pid=,args=', '-g', String(pgid)], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), args: m[2]! }));
}

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((r) => child.once('exit', (code) => r(code)));

/** The demo e-mails of README's table. */
function readmeDemoAccounts(): string[] {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/^\|\s*([\w.]+@demo\.filiere\.bj)\s*\|/gm)].map((m) => m[1]!);
}

/**
 * `npm start` in a terminal, stopped with Ctrl-C (issue 16, item 15): the terminal signals its
 * whole foreground process group. The embedded PostgreSQL used to be in that group and began
 * its fast shutdown with our stop, cutting the API's connections under it ('events LISTEN
 * connection lost', a warning with a stack trace). Here the group is signalled in the worst
 * order a terminal may deliver it — PostgreSQL first when it is in the group — and the stop
 * must log nothing at warning level or above.
 */
describe('npm start stopped by Ctrl-C', () => {
  let started: ChildProcess | undefined;
  afterAll(async () => {
    // A failed assertion before the stop leaves the detached start running: stop it.
    if (started && started.exitCode === null && started.signalCode === null) {
      process.kill(-started.pid!, 'SIGTERM');
      await exited(started);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints every demo account of README and stops without a warning, PostgreSQL last', async () => {
    const port = await getPort();
    let out = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/src/start.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: '',
        REDIS_URL: '',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        PORT: String(port),
      },
      // Its own process group, as a terminal's foreground job.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started = child;
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    for (let i = 0; i < 900 && !out.includes('Ctrl-C pour arrêter'); i++) {
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(out).toContain('Ctrl-C pour arrêter');
    const banner = out.slice(out.indexOf('Comptes de démonstration'));
    const readme = readmeDemoAccounts();
    expect(readme.length).toBeGreaterThanOrEqual(9);
    for (const email of readme) expect(banner, email).toContain(email);

    const before = out.length;
    const members = groupMembers(child.pid!);
    const postgres = members.filter((m) => /\/postgres\s/.test(m.args));
    for (const m of postgres) process.kill(m.pid, 'SIGINT');
    if (postgres.length) await new Promise((r) => setTimeout(r, 500));
    for (const m of members.filter((m) => !postgres.includes(m))) {
      try {
        process.kill(m.pid, 'SIGINT');
      } catch {
        // gone already (a helper process)
      }
    }
    expect(await exited(child)).toBe(0);
    const stopLog = out.slice(before);
    // LOG_LEVEL=warn: any log line at all is a warning or worse.
    expect(stopLog.split('\n').filter((line) => line.includes('"level"'))).toEqual([]);
    // PostgreSQL heard none of the group's Ctrl-C: it was stopped, last, by the start itself.
    expect(postgres).toEqual([]);
    const left = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
    expect(left.split('\n').filter((l) => l.includes(dataDir) && !l.includes('ps -eo'))).toEqual(
      [],
    );
  }, 240_000);
});
