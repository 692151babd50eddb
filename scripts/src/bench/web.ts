import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
} from 'playwright-core';
import { writeBenchmarkSection } from './report.js';

/**
 * `npm run bench:web`: the web app as a phone on a slow mobile network meets it. The product
 * (`npm start`'s script: embedded PostgreSQL in a fresh data directory, the demo, the production
 * web build) on a free port; Chromium (/usr/bin/chromium) through playwright-core with
 * Lighthouse's mobile network profile applied by CDP (Network.emulateNetworkConditions: 150 ms
 * latency, 1.6 Mbit/s down, 750 kbit/s up), no CPU throttling (the machine is already slow).
 *
 * Three figures, each with the bytes and requests it took:
 * - first visit (fresh context, empty cache): /auth/login until the login form is shown;
 * - sign-in: 'Se connecter' until the dashboard shows its figures;
 * - return visit: the wallet opened once (its code cached), then a new page of the same context
 *   opens /wallet until its balance (a figure, not the placeholder) is shown.
 *
 * BENCH_TRACE=1 prints each figure's requests (start → end in ms, bytes, URL): what waits on what.
 *
 * BENCH_LABEL names the run in docs/benchmarks.md ('Before' or 'After', default 'After'); each
 * label keeps its own table, so a run before a change and one after it stand side by side.
 * BENCH_RUNS (default 3): runs of each figure; the median is reported.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CHROMIUM = '/usr/bin/chromium';
const ACCOUNT = 'agregateur@demo.filiere.bj';
const PASSWORD = 'Demo#2026';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LABEL = process.env.BENCH_LABEL ?? 'After';

/** Lighthouse's mobile profile, as the issue states it (bytes per second for CDP). */
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

const TARGETS = {
  login: { seconds: 2.5, kib: 300 },
  signIn: { seconds: 1.5 },
  wallet: { seconds: 1, requests: 20 },
};

interface Sample {
  seconds: number;
  /** Bytes received over the network (headers and bodies as sent, compressed when they are). */
  bytes: number;
  /** Requests the page made, whatever answered them. */
  requests: number;
  /** Of them, those that reached the server (not the memory/disk cache or the service worker). */
  network: number;
}

/** Counts what a page loads through its CDP session, from `reset()` on. */
class Meter {
  private bytes = 0;
  private requests = new Set<string>();
  private cached = new Set<string>();
  /** BENCH_TRACE: each request's start and end (CDP's monotonic seconds) and its URL. */
  private trace = new Map<
    string,
    { url: string; start: number; end?: number; bytes?: number; from?: string }
  >();

  constructor(cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.url.startsWith('data:')) return;
      this.requests.add(e.requestId);
      const url = `${e.request.method} ${e.request.url.replace(/^https?:\/\/[^/]+/, '')}`;
      this.trace.set(e.requestId, { url, start: e.timestamp });
    });
    cdp.on('Network.requestServedFromCache', (e) => this.cached.add(e.requestId));
    cdp.on('Network.responseReceived', (e) => {
      if (e.response.fromDiskCache || e.response.fromServiceWorker) this.cached.add(e.requestId);
      const t = this.trace.get(e.requestId);
      if (t && e.response.fromServiceWorker) t.from = 'service worker';
      else if (t && e.response.fromDiskCache) t.from = 'disk cache';
    });
    cdp.on('Network.requestServedFromCache', (e) => {
      const t = this.trace.get(e.requestId);
      if (t) t.from = 'memory cache';
    });
    cdp.on('Network.loadingFinished', (e) => {
      if (this.requests.has(e.requestId)) this.bytes += e.encodedDataLength;
      const t = this.trace.get(e.requestId);
      if (t) Object.assign(t, { end: e.timestamp, bytes: e.encodedDataLength });
    });
  }

  reset(): void {
    this.bytes = 0;
    this.requests.clear();
    this.cached.clear();
    this.trace.clear();
  }

  /** The requests since `reset()`, in the order they started, relative to the first. */
  waterfall(name: string): string {
    const rows = [...this.trace.entries()].sort((a, b) => a[1].start - b[1].start);
    const t0 = rows[0]?.[1].start ?? 0;
    const ms = (t: number | undefined) => (t === undefined ? '   …' : ((t - t0) * 1000).toFixed(0));
    return [
      `${name}:`,
      ...rows.map(
        ([id, r]) =>
          `  ${ms(r.start).padStart(5)} → ${ms(r.end).padStart(5)} ms ${String(r.bytes ?? '').padStart(7)} B${r.from ? ` (${r.from})` : this.cached.has(id) ? ' (cache)' : ''} ${r.url.slice(0, 110)}`,
      ),
    ].join('\n');
  }

  sample(seconds: number): Sample {
    const network = [...this.requests].filter((id) => !this.cached.has(id)).length;
    return { seconds, bytes: this.bytes, requests: this.requests.size, network };
  }
}

async function throttledPage(context: BrowserContext): Promise<{ page: Page; meter: Meter }> {
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  // A failing screen says why in the bench's output.
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[browser] ${message.text()}`);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  return { page, meter: new Meter(cdp) };
}

async function timed(name: string, meter: Meter, action: () => Promise<unknown>): Promise<Sample> {
  meter.reset();
  const t0 = performance.now();
  await action();
  const sample = meter.sample((performance.now() - t0) / 1000);
  if (process.env.BENCH_TRACE) process.stdout.write(`${meter.waterfall(name)}\n`);
  return sample;
}

/** One visitor: first visit, sign-in, wallet, return to the wallet. */
async function visit(base: string, browser: Browser) {
  const context = await browser.newContext({
    locale: 'fr-FR',
    timezoneId: 'Africa/Porto-Novo',
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  try {
    const first = await throttledPage(context);
    const login = await timed('first visit', first.meter, async () => {
      await first.page.goto(`${base}/auth/login`, { waitUntil: 'commit' });
      await first.page.getByLabel('Email').waitFor();
    });
    await first.page.getByLabel('Email').fill(ACCOUNT);
    await first.page.getByLabel(/^Mot de passe/).fill(PASSWORD);
    const signIn = await timed('sign-in', first.meter, async () => {
      await first.page.getByRole('button', { name: 'Se connecter' }).click();
      await first.page.getByTestId('card-totalContracts').waitFor();
    });
    // The wallet once, as a user who visits it: its code is then in the browser's caches.
    // Its balance reads '—' until the wallet's figures have come: the figure waits for them.
    const walletOnce = async (page: Page) => {
      await page.goto(`${base}/wallet`, { waitUntil: 'commit' });
      await page.getByTestId('wallet-available').filter({ hasText: /\d/ }).first().waitFor();
    };
    const walletCold = await timed('wallet, first time', first.meter, () => walletOnce(first.page));
    await first.page.waitForLoadState('networkidle');
    // Someone who comes back later finds the service worker installed (its precache filled
    // while the first visit went on): the return visit starts once it is active.
    await first.page.waitForFunction(
      // Serialised into the page: it names nothing of this module.
      async () =>
        (
          await (
            globalThis as unknown as {
              navigator: {
                serviceWorker: {
                  getRegistration(): Promise<{ active: { state: string } | null } | undefined>;
                };
              };
            }
          ).navigator.serviceWorker.getRegistration()
        )?.active?.state === 'activated',
      undefined,
      { polling: 250 },
    );
    await first.page.close();
    const again = await throttledPage(context);
    const walletWarm = await timed('return visit', again.meter, () => walletOnce(again.page));
    return { login, signIn, walletCold, walletWarm };
  } finally {
    await context.close();
  }
}

function median(samples: Sample[]): Sample {
  const sorted = [...samples].sort((a, b) => a.seconds - b.seconds);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Starts `npm start`'s script on a free port with its own data directory; resolves when up. */
async function startProduct(): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await getPort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'filiere-bench-web-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/src/start.ts')],
    {
      cwd: root,
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the product exited with ${child.exitCode}`);
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { base, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error('the product did not start in 10 minutes');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

const kib = (bytes: number) => (bytes / 1024).toFixed(0);
const s = (seconds: number) => seconds.toFixed(2).replace('.', ',');

async function main(): Promise<void> {
  process.stdout.write('Starting the product…\n');
  const product = await startProduct();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const runs: Awaited<ReturnType<typeof visit>>[] = [];
  const load: number[] = [os.loadavg()[0]!];
  try {
    // One visit not measured: the server's code paths and PostgreSQL's caches are warm, as in
    // a running product.
    await visit(product.base, browser);
    for (let i = 0; i < RUNS; i++) {
      const run = await visit(product.base, browser);
      process.stdout.write(`run ${i + 1}: ${JSON.stringify(run)}\n`);
      runs.push(run);
    }
  } finally {
    load.push(os.loadavg()[0]!);
    await browser.close();
    await product.stop();
  }
  const pick = (key: keyof (typeof runs)[number]) => median(runs.map((r) => r[key]));
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const cpus = os.cpus().length;
  const mem = Math.round(os.totalmem() / 1024 ** 3);
  const run: Run = {
    label: LABEL,
    conditions: `${when} UTC, ${cpus} cores, ${mem} GiB, Node ${process.version}, Chromium ${browser.version()}, 1-min load average ${load.map((l) => l.toFixed(1)).join(' → ')}; median of ${RUNS} visits`,
    cells: FIGURES.map(({ key }) => cell(pick(key))),
  };
  process.stdout.write(`${LABEL}: ${run.conditions}\n`);
  FIGURES.forEach(({ name }, i) => process.stdout.write(`  ${name}: ${run.cells[i]}\n`));
  await writeBenchmarkSection('## Web delivery', await section(run));
}

const FIGURES = [
  {
    key: 'login',
    name: 'First visit: login form shown',
    target: `≤ ${s(TARGETS.login.seconds)} s, ≤ ${TARGETS.login.kib} KiB`,
  },
  {
    key: 'signIn',
    name: "Sign-in to the dashboard's figures",
    target: `≤ ${s(TARGETS.signIn.seconds)} s`,
  },
  { key: 'walletCold', name: 'Wallet, first time (its code not cached)', target: '' },
  {
    key: 'walletWarm',
    name: 'Return visit: wallet with its data',
    target: `≤ ${s(TARGETS.wallet.seconds)} s, ≤ ${TARGETS.wallet.requests} requests to the server`,
  },
] as const;

/** One figure of a run: seconds · KiB · requests (of which to the server). */
const cell = (x: Sample) =>
  `${s(x.seconds)} s · ${kib(x.bytes)} KiB · ${x.requests} req. (${x.network} to the server)`;

interface Run {
  label: string;
  conditions: string;
  cells: string[];
}

/**
 * The section: one table, a column per label (Before, After), this run's column in place of
 * the same label's, the other labels' columns kept as they were recorded.
 */
async function section(run: Run): Promise<string[]> {
  const current = await readFile(path.join(root, 'docs/benchmarks.md'), 'utf8');
  const start = current.indexOf('## Web delivery');
  const lines = start < 0 ? [] : current.slice(start).split('\n## ')[0]!.split('\n');
  const runs = new Map<string, Run>();
  const header = lines.find((l) => l.startsWith('| Figure |'));
  if (header) {
    const labels = header
      .split('|')
      .slice(2, -2)
      .map((c) => c.trim());
    const rows = lines.filter(
      (l) => l.startsWith('| ') && !l.startsWith('| Figure') && !l.startsWith('| ---'),
    );
    labels.forEach((label, i) => {
      const conditions =
        lines.find((l) => l.startsWith(`- **${label}**: `))?.slice(label.length + 8) ?? '';
      runs.set(label, { label, conditions, cells: rows.map((r) => r.split('|')[i + 2]!.trim()) });
    });
  }
  runs.set(run.label, run);
  const order = [...runs.keys()].sort((a, b) => rank(a) - rank(b));
  return [
    '## Web delivery',
    '',
    'Measured by `npm run bench:web`: the product as `npm start` runs it (production web build, demo data) on a free port, driven by Chromium through playwright-core with Lighthouse’s mobile network profile applied through CDP (`Network.emulateNetworkConditions`: 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up), no CPU throttling, a 390 × 844 mobile viewport, the demo aggregator. First visit: a fresh browser context (empty cache) opens /auth/login until the form is shown. Sign-in: from “Se connecter” until the dashboard’s figures are shown. Wallet: /wallet until its balance is shown, first in the same page, then (return visit) in a new page of the same context, its code cached. KiB: bytes received over the network (compressed where they are). Requests: every request the page made; to the server: those not answered by the browser’s cache or the service worker. The network profile applies to the page’s requests: what a service worker fetches for its own cache is not throttled. Each figure is the median of the runs; one visit before them is not measured (the server warm, as in a running product).',
    '',
    ...order.map((label) => `- **${label}**: ${runs.get(label)!.conditions}`),
    '',
    `| Figure | ${order.join(' | ')} | Target |`,
    `| --- | ${order.map(() => '---').join(' | ')} | --- |`,
    ...FIGURES.map(
      ({ name, target }, i) =>
        `| ${name} | ${order.map((l) => runs.get(l)!.cells[i] ?? '').join(' | ')} | ${target} |`,
    ),
  ];
}

/** Before first, After second, any other label after them. */
const rank = (label: string) => (label === 'Before' ? 0 : label === 'After' ? 1 : 2);

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
