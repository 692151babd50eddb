import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { runningPostmaster } from '@filiere/platform';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'filiere-start-'));
/** `npm start`'s command after its `node`. */
const START_ARGS = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  }
).scripts.start
  .split(' ')
  .slice(1);

function start(
  env: Record<string, string>,
  options: { detached?: boolean } = {},
): { child: ChildProcess; output: () => string } {
  let out = '';
  // As `npm start` runs it (package.json's command, its `node` being this Node): one Node
  // process running the server's build (scripts/run.mjs), no npm or CLI relaying signals.
  const child = spawn(process.execPath, START_ARGS, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      ...env,
    },
    // detached: its own process group, as a terminal's foreground job.
    detached: options.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

async function waitForHealth(
  port: number,
  child: ChildProcess,
  output: () => string,
): Promise<unknown> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return response.json();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no health answer:\n${output()}`);
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((r) => child.once('exit', (code) => r(code)));
}

/** The processes of a process group, with their command lines. */
function groupMembers(pgid: number): { pid: number; args: string }[] {
  const ps = spawnSync('ps', ['-o', 'pid=,args=', '-g', String(pgid)], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), args: m[2]! }));
}

/** The demo e-mails of README's table. */
function readmeDemoAccounts(): string[] {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/^\|\s*([\w.]+@demo\.filiere\.bj)\s*\|/gm)].map((m) => m[1]!);
}

/** Processes whose command line names our data directory (postgres and its children). */
function processesUsing(dir: string): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return ps.stdout.split('\n').filter((line) => line.includes(dir) && !line.includes('ps -eo'));
}

describe('npm start (embedded mode)', () => {
  /** The detached start of the Ctrl-C test, while it runs. */
  let group: ChildProcess | undefined;
  afterAll(async () => {
    // A failed assertion before the stop leaves the detached start running: stop it.
    if (group && group.exitCode === null && group.signalCode === null) {
      process.kill(-group.pid!, 'SIGTERM');
      await exited(group);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The first start on a fresh data directory (initdb, migrations, the demo's load): watched
   * from its first instant, it is ready only once the demo is loaded and listed.
   */
  it('is ready only once the demo is loaded and listed (at the first 200 of /api/ready, GET seasons shows the demo season), serves API and web on one port, prints the demo accounts, and Ctrl-C leaves no postgres behind', async () => {
    const port = await getPort();
    const { child, output } = start({ PORT: String(port) });
    const base = `http://127.0.0.1:${port}/api`;
    let ready: Response | undefined;
    for (let i = 0; i < 1500 && ready?.status !== 200; i++) {
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output()}`);
      ready = await fetch(`${base}/ready`).catch(() => undefined);
      if (ready?.status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready?.status).toBe(200);
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'superadmin@demo.filiere.bj', password: 'Demo#2026' }),
    });
    expect(login.status).toBe(200);
    const { access_token: token } = (await login.json()) as { access_token: string };
    const seasons = await fetch(`${base}/seasons?page=1&limit=10`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const labels = ((await seasons.json()) as { data: { label: string }[] }).data.map(
      (s) => s.label,
    );
    expect(labels).toEqual(['Saison 2026–2027']);

    expect(await waitForHealth(port, child, output)).toEqual({ status: 'ok' });
    const readyAgain = await fetch(`http://127.0.0.1:${port}/api/ready`);
    expect(readyAgain.status).toBe(200);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(output()).toContain(`http://localhost:${port}`);
    expect(output()).toContain('superadmin@demo.filiere.bj');
    expect(processesUsing(dataDir).length).toBeGreaterThan(0);

    child.kill('SIGINT');
    expect(await exited(child)).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);
  }, 240_000);

  /**
   * `npm start` in a terminal, stopped with Ctrl-C: the terminal signals its
   * whole foreground process group. In that group the embedded PostgreSQL would begin its
   * fast shutdown with our stop, cutting the API's connections under it ('events LISTEN
   * connection lost', a warning with a stack trace). Here the group is signalled in the worst
   * order a terminal may deliver it — PostgreSQL first when it is in the group — and the stop
   * must log nothing at warning level or above. It is also the second start on the data
   * directory, which it reuses (no initdb).
   */
  it('a second start reuses the data directory, prints every demo account of README, and Ctrl-C to its process group stops it without a warning, PostgreSQL last', async () => {
    const port = await getPort();
    const { child, output } = start({ PORT: String(port) }, { detached: true });
    group = child;
    for (let i = 0; i < 900 && !output().includes('Ctrl-C pour arrêter'); i++) {
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output()).toContain('Ctrl-C pour arrêter');
    expect(output()).not.toContain('initdb');
    const banner = output().slice(output().indexOf('Comptes de démonstration'));
    const readme = readmeDemoAccounts();
    expect(readme.length).toBeGreaterThanOrEqual(9);
    for (const email of readme) expect(banner, email).toContain(email);

    const before = output().length;
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
    const stopLog = output().slice(before);
    // LOG_LEVEL=warn: any log line at all is a warning or worse.
    expect(stopLog.split('\n').filter((line) => line.includes('"level"'))).toEqual([]);
    // PostgreSQL heard none of the group's Ctrl-C: it was stopped, last, by the start itself.
    expect(postgres).toEqual([]);
    expect(processesUsing(dataDir)).toEqual([]);
  }, 240_000);

  it('a start that fails (its port is taken) exits non-zero and leaves no postgres behind', async () => {
    const port = await getPort();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const { child, output } = start({ PORT: String(port) });
      expect(await exited(child)).toBe(1);
      expect(output()).toContain('start-up failed');
      expect(processesUsing(dataDir)).toEqual([]);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 120_000);

  it('after its Node process is SIGKILLed, the next start stops the postgres left behind and serves', async () => {
    const firstPort = await getPort();
    const first = start({ PORT: String(firstPort) });
    await waitForHealth(firstPort, first.child, first.output);
    const postmaster = runningPostmaster(path.join(dataDir, 'postgres'))!;
    const parent = readFileSync(`/proc/${postmaster.pid}/stat`, 'utf8').split(') ')[1]!;
    expect(Number(parent.split(' ')[1])).toBe(first.child.pid);
    first.child.kill('SIGKILL');
    await exited(first.child);
    // The orphan: alive, no longer owned.
    expect(runningPostmaster(path.join(dataDir, 'postgres'))).toMatchObject({
      pid: postmaster.pid,
      owned: false,
    });

    const port = await getPort();
    const second = start({ PORT: String(port) });
    expect(await waitForHealth(port, second.child, second.output)).toEqual({ status: 'ok' });
    expect(second.output()).toContain('stopped the PostgreSQL a killed start left running');
    expect(runningPostmaster(path.join(dataDir, 'postgres'))?.pid).not.toBe(postmaster.pid);
    expect(second.output()).not.toContain('initdb');
    // SIGTERM (a service manager's stop) stops it as Ctrl-C does.
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);
  }, 240_000);

  it('a bad PORT stops start-up with one line naming PORT', async () => {
    const { child, output } = start({ PORT: 'abc' });
    expect(await exited(child)).toBe(1);
    const lines = output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: PORT /);
  });
});
