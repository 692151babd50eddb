import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
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
 * A fourth, the collection centre (paying at the scale): on /centre-de-collecte, from the
 * keystroke submitting the grower's code through picking his contract, entering the kilograms and
 * the grade, and confirming, until the screen says the payout is queued. Each run first prepares,
 * through the product's API and not counted, a CONFIRMED contract for the demo grower
 * (producteur@, a phone and a mobile money number): the aggregator creates it, the grower signed
 * in confirms it, as they do. The script's own actions (fill, press, click: no typing delays) are
 * timed apart: the figure's 'machine' part is the rest, what the product and the network took.
 *
 * Each figure is timed by the page itself (`watchShown`): from the navigation's start, or from
 * the user's press or click that starts it, to the animation frame in which the awaited element
 * first appears in the document. Playwright's waits only tell the script when to read that stamp:
 * they look at the page at growing intervals, so their own time overstated a figure by up to
 * half a second.
 *
 * BENCH_TRACE=1 prints each figure's requests (start → end in ms, bytes, URL): what waits on what;
 * and the return visit's CPU profile (`profiled`).
 * BENCH_ONLY=collection measures that figure alone; the other figures' cells stay as recorded.
 * BENCH_ONLY=visits measures the others, the collection's cell staying as recorded.
 *
 * BENCH_LABEL names the run in docs/benchmarks.md ('Before' or 'After', default 'After'); each
 * label keeps its own table, so a run before a change and one after it stand side by side.
 * BENCH_RUNS (default 3): runs of each figure; the median is reported.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CHROMIUM = '/usr/bin/chromium';
const ACCOUNT = 'agregateur@demo.filiere.bj';
const PASSWORD = 'Demo#2026';
/** The demo grower with an account: he confirms the bench's contracts himself. */
const GROWER = 'producteur@demo.filiere.bj';
const ONLY = process.env.BENCH_ONLY;
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
  collection: { seconds: 2 },
};

interface Sample {
  seconds: number;
  /** Bytes received over the network (headers and bodies as sent, compressed when they are). */
  bytes: number;
  /** Requests the page made, whatever answered them. */
  requests: number;
  /** Of them, those that reached the server (not the memory/disk cache or the service worker). */
  network: number;
  /** Of `seconds`, those the script's own actions took (fill, press, click), when timed apart. */
  script?: number;
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

async function throttledPage(
  context: BrowserContext,
): Promise<{ page: Page; meter: Meter; cdp: CDPSession }> {
  const page = await context.newPage();
  page.setDefaultTimeout(Number(process.env.BENCH_TIMEOUT ?? 120_000));
  // A failing screen says why in the bench's output.
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[browser] ${message.text()}`);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  return { page, meter: new Meter(cdp), cdp };
}

/**
 * BENCH_TRACE: `action` under CDP's sampling profiler; prints where the page's main thread spent
 * it (self time by script, and the heaviest functions), idle and the browser's own left out.
 * BENCH_TRACE_DIR: the profile is also written there (`<figure>.cpuprofile`, for DevTools or a
 * source map: the build's `sourcemap` setting).
 */
async function profiled<T>(name: string, cdp: CDPSession, action: () => Promise<T>): Promise<T> {
  if (!process.env.BENCH_TRACE) return action();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  const result = await action();
  const { profile } = await cdp.send('Profiler.stop');
  if (process.env.BENCH_TRACE_DIR)
    await writeFile(
      path.join(process.env.BENCH_TRACE_DIR, `${name}.cpuprofile`),
      JSON.stringify(profile),
    );
  const dt = new Map<number, number>();
  profile.samples?.forEach((id, i) =>
    dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)),
  );
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const ms = (dt.get(node.id) ?? 0) / 1000;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    const script = url ? url.replace(/^https?:\/\/[^/]+/, '') : `(${functionName})`;
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    const fn = `${functionName || '(anonymous)'} ${script}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `  ${ms.toFixed(0).padStart(5)} ms ${k}`);
  process.stdout.write(
    [
      `${name}, CPU by script:`,
      ...top(byScript, 12),
      `${name}, heaviest functions:`,
      ...top(byFunction, 15),
    ].join('\n') + '\n',
  );
  return result;
}

/**
 * What the figures wait for, as the page shows it: a selector, and a pattern its text must match.
 * The bench's init script (`watchShown`) stamps, on the page's own clock, the frame in which each
 * first appears in the document.
 */
const SHOWN = {
  login: { selector: 'input[autocomplete="username"]', text: '' },
  signIn: { selector: '[data-testid="card-totalContracts"]', text: '' },
  wallet: { selector: '[data-testid="wallet-available"]', text: '\\d' },
  collection: {
    selector: 'main',
    text: 'Le net est envoyé sur le mobile money du producteur\\.',
  },
} as const;
type Shown = keyof typeof SHOWN;

/**
 * Installed in every page before its own scripts: each DOM change schedules a check at the next
 * animation frame (the frame that paints it), which stamps `performance.now()` for each awaited
 * element seen for the first time in this document; the first pointer or key press after the
 * bench clears `input` stamps it too (the user's action that starts a figure).
 */
function watchShown(shown: Record<string, { selector: string; text: string }>): void {
  const page = globalThis as unknown as {
    __bench: { shown: Record<string, number>; input: number | null };
    document: {
      querySelectorAll(s: string): ArrayLike<{ textContent: string | null }>;
    };
    MutationObserver: new (cb: () => void) => {
      observe(target: unknown, options: Record<string, boolean>): void;
      disconnect(): void;
    };
    requestAnimationFrame(cb: () => void): number;
    addEventListener(type: string, cb: () => void, capture: boolean): void;
  };
  const state = { shown: {} as Record<string, number>, input: null as number | null };
  page.__bench = state;
  const stampInput = () => {
    if (state.input === null) state.input = performance.now();
  };
  page.addEventListener('pointerdown', stampInput, true);
  page.addEventListener('keydown', stampInput, true);
  const checks = Object.entries(shown).map(([name, { selector, text }]) => ({
    name,
    selector,
    pattern: text ? new RegExp(text) : null,
  }));
  let scheduled = false;
  const check = () => {
    scheduled = false;
    const now = performance.now();
    for (const { name, selector, pattern } of checks) {
      if (state.shown[name] !== undefined) continue;
      const found = Array.from(page.document.querySelectorAll(selector)).some(
        (element) => !pattern || pattern.test(element.textContent ?? ''),
      );
      if (found) state.shown[name] = now;
    }
    if (checks.every(({ name }) => state.shown[name] !== undefined)) observer.disconnect();
  };
  const observer = new page.MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    page.requestAnimationFrame(check);
  });
  observer.observe(page.document, { childList: true, subtree: true, characterData: true });
}

/** Clears the page's stamp of the user's last action: the next press or click stamps it. */
const armInput = (page: Page) =>
  page.evaluate(() => {
    (globalThis as unknown as { __bench: { input: number | null } }).__bench.input = null;
  });

/**
 * Seconds on the page's clock from `from` to the frame that first showed `name`: from the
 * document's navigation start ('navigation'), or from the action stamped after `armInput`.
 * Read once the bench's own wait has seen it.
 */
async function shownAfter(page: Page, name: Shown, from: 'navigation' | 'input'): Promise<number> {
  const { shown, input } = await page.evaluate((n) => {
    const state = (
      globalThis as unknown as { __bench: { shown: Record<string, number>; input: number | null } }
    ).__bench;
    return { shown: state.shown[n], input: state.input };
  }, name);
  const start = from === 'navigation' ? 0 : input;
  if (shown === undefined || start === null || start === undefined)
    throw new Error(`${name}: not stamped by the page (shown ${shown}, ${from} ${start})`);
  return (shown - start) / 1000;
}

/** Opens a mobile browser context whose pages stamp what the figures wait for. */
async function mobileContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: 'fr-FR',
    timezoneId: 'Africa/Porto-Novo',
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  // As source: tsx names the functions it compiles through a `__name` helper the page lacks.
  await context.addInitScript({
    content: `var __name = (f) => f; (${watchShown.toString()})(${JSON.stringify(SHOWN)});`,
  });
  return context;
}

/** The figure `action` measures (its page's seconds), with what the page loaded meanwhile. */
async function timed(name: string, meter: Meter, action: () => Promise<number>): Promise<Sample> {
  meter.reset();
  const seconds = await action();
  const sample = meter.sample(seconds);
  if (process.env.BENCH_TRACE) process.stdout.write(`${meter.waterfall(name)}\n`);
  return sample;
}

/** One visitor: first visit, sign-in, wallet, return to the wallet. */
async function visit(base: string, browser: Browser) {
  const context = await mobileContext(browser);
  try {
    const first = await throttledPage(context);
    const login = await timed('first visit', first.meter, async () => {
      await first.page.goto(`${base}/auth/login`, { waitUntil: 'commit' });
      await first.page.getByLabel('Email').waitFor();
      return shownAfter(first.page, 'login', 'navigation');
    });
    await first.page.getByLabel('Email').fill(ACCOUNT);
    await first.page.getByLabel(/^Mot de passe/).fill(PASSWORD);
    await armInput(first.page);
    const signIn = await timed('sign-in', first.meter, async () => {
      await first.page.getByRole('button', { name: 'Se connecter' }).click();
      await first.page.getByTestId('card-totalContracts').waitFor();
      return shownAfter(first.page, 'signIn', 'input');
    });
    // The wallet once, as a user who visits it: its code is then in the browser's caches.
    // Its balance reads '—' until the wallet's figures have come: the figure waits for them.
    const walletOnce = async (page: Page, fromServiceWorker = false) => {
      const response = await page.goto(`${base}/wallet`, { waitUntil: 'commit' });
      // A returning user's shell comes from the service worker (navigateFallback): a return
      // visit whose document came from the server measures another product.
      if (fromServiceWorker && !response?.fromServiceWorker())
        throw new Error('the return visit’s page did not come from the service worker');
      await page.getByTestId('wallet-available').filter({ hasText: /\d/ }).first().waitFor();
      return shownAfter(page, 'wallet', 'navigation');
    };
    const walletCold = await timed('wallet, first time', first.meter, () => walletOnce(first.page));
    await first.page.waitForLoadState('networkidle');
    // Someone who comes back later finds the service worker installed (its precache filled
    // while the first visit went on): the return visit starts once it controls the page
    // (clientsClaim). The predicate is synchronous: waitForFunction takes a returned promise
    // (an async predicate's) for a truthy answer at once.
    await first.page.waitForFunction(
      // Serialised into the page: it names nothing of this module.
      () =>
        (
          globalThis as unknown as {
            navigator: { serviceWorker: { controller: { state: string } | null } };
          }
        ).navigator.serviceWorker.controller?.state === 'activated',
      undefined,
      { polling: 250 },
    );
    await first.page.close();
    const again = await throttledPage(context);
    const walletWarm = await profiled('return visit', again.cdp, () =>
      timed('return visit', again.meter, () => walletOnce(again.page, true)),
    );
    return { login, signIn, walletCold, walletWarm };
  } finally {
    await context.close();
  }
}

/** The product's API as a signed-in user (Node's fetch: never throttled, never counted). */
async function apiAs(base: string, email: string) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (login.status !== 200)
    throw new Error(`login ${email}: ${login.status} ${await login.text()}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const call = async <T>(
    method: string,
    url: string,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<T> => {
    const answer = await fetch(`${base}/api${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${url} as ${email}: ${answer.status} ${text}`);
    return JSON.parse(text) as T;
  };
  return { token, call };
}

/** The weighing each run enters on the scale. */
const WEIGHING = { kilograms: 1000, grade: 'B' } as const;
/** Today in Benin (UTC+1, no daylight saving), as the screen's weighing day. */
const today = () => new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);

interface CollectionGrower {
  id: string;
  reference: string;
  phone: string | null;
  hasMobileMoney: boolean;
  contracts: { id: string; reference: string }[];
}

/**
 * What a run of the collection figure needs and does not count: the demo grower, and for each
 * run a contract of his the aggregator holds, CONFIRMED by him and listed by the scale's search.
 */
async function collectionPreparation(base: string) {
  const aggregator = await apiAs(base, ACCOUNT);
  const grower = await apiAs(base, GROWER);
  const me = await grower.call<{ id: string }>('GET', '/users/me');
  // Found by his name (the actors' demo, DEMO_GROWER_ACCOUNT), told apart by his user.
  const listed = await aggregator.call<{ data: { id: string; user: { id: string } }[] }>(
    'GET',
    '/grower?q=Ahouandjinou&limit=100',
  );
  const growerId = listed.data.find((g) => g.user.id === me.id)?.id;
  if (!growerId) throw new Error(`${GROWER} is not a grower of the aggregator's cluster`);
  const detail = await aggregator.call<{ reference: string; products: { id: string }[] }>(
    'GET',
    `/grower/${growerId}`,
  );
  const found = (reference: string) =>
    aggregator.call<{ data: CollectionGrower[] }>(
      'GET',
      `/contracts/collection/growers?q=${encodeURIComponent(reference)}`,
    );
  return {
    reference: detail.reference,
    /**
     * A new CONFIRMED contract (1 t for 150 000 F), once the scale's search lists it, whose
     * weighing (WEIGHING) leaves the grower a net to pay out: while his debts would take it
     * all, such a contract is weighed through the API first, which recovers them.
     */
    async contract(): Promise<string> {
      for (let attempt = 0; attempt < 10; attempt++) {
        const created = await aggregator.call<{ contractId: string; reference: string }>(
          'POST',
          '/contracts/delivery-contract',
          { growerId, productId: detail.products[0]!.id, quantity: 1, amount: 150_000 },
        );
        // The grower signed in confirms his own contract without a code.
        await grower.call(
          'PATCH',
          `/contracts/delivery-contract/${created.contractId}/confirm`,
          {},
        );
        for (let i = 0; ; i++) {
          const g = (await found(detail.reference)).data.find((x) => x.id === growerId);
          if (g?.contracts.some((c) => c.id === created.contractId)) {
            if (!g.phone || !g.hasMobileMoney) throw new Error(`${GROWER}: no mobile money`);
            break;
          }
          if (i > 100) throw new Error(`${created.reference}: never listed by the scale's search`);
          await new Promise((r) => setTimeout(r, 100));
        }
        const weighing = { contractId: created.contractId, ...WEIGHING, weighedOn: today() };
        const preview = await aggregator.call<{ growerNet: number }>(
          'POST',
          '/contracts/collection/preview',
          weighing,
        );
        if (preview.growerNet > 0) return created.reference;
        await aggregator.call('POST', '/contracts/collection/weighings', weighing, randomUUID());
      }
      throw new Error(`${GROWER}: his debts take every weighing's net`);
    },
    token: aggregator.token,
  };
}

/**
 * The collection centre, `runs` weighings after one not measured, each on the screen freshly
 * opened (the app's code cached, the query cache empty) for a grower with a contract prepared
 * beforehand. From the Enter that submits his code to 'Le net est envoyé sur le mobile money du
 * producteur.'; the script's actions in between are summed apart.
 */
async function collect(base: string, browser: Browser, runs: number): Promise<Sample[]> {
  const prepared = await collectionPreparation(base);
  const context = await mobileContext(browser);
  // Signed in as the sign-in leaves it: the token where the web app keeps it.
  await context.addInitScript(
    // Serialised into the page: it names nothing of this module.
    ({ token }) => {
      const storage = (
        globalThis as unknown as {
          localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
        }
      ).localStorage;
      if (!storage.getItem('access_token')) storage.setItem('access_token', token);
    },
    { token: prepared.token },
  );
  const samples: Sample[] = [];
  try {
    const { page, meter } = await throttledPage(context);
    for (let i = 0; i <= runs; i++) {
      const contract = await prepared.contract();
      await page.goto(`${base}/centre-de-collecte`);
      await page.getByRole('heading', { name: 'Centre de collecte' }).waitFor();
      // The day kept for offline work loads with the screen: it is not the weighing's.
      await page
        .getByTestId('collection-ready')
        .filter({ hasText: /gardés/ })
        .waitFor();
      await page.waitForLoadState('networkidle');
      const code = page.getByLabel('Code du producteur ou téléphone');
      await code.fill(prepared.reference);
      await armInput(page);
      let script = 0;
      const act = async (action: () => Promise<unknown>) => {
        const t = performance.now();
        await action();
        script += performance.now() - t;
      };
      const sample = await timed('collection', meter, async () => {
        await act(() => code.press('Enter'));
        const pick = page.getByRole('button', { name: `Peser pour le contrat ${contract}` });
        await pick.waitFor();
        await act(() => pick.click());
        const kilograms = page.getByLabel('Poids pesé (kg)');
        await kilograms.waitFor();
        await act(() => kilograms.fill(String(WEIGHING.kilograms)));
        await act(() => page.getByText(WEIGHING.grade, { exact: true }).click());
        const confirm = page.getByRole('button', { name: /^Confirmer et payer \d/ });
        await confirm.and(page.locator(':enabled')).waitFor();
        await act(() => confirm.click());
        await page
          .getByText('Le net est envoyé sur le mobile money du producteur.')
          .waitFor()
          .catch(async (error: unknown) => {
            // A failing weighing says why: the screen's text in the bench's output.
            console.error(`[collection] ${await page.locator('main').innerText()}`);
            throw error;
          });
        return shownAfter(page, 'collection', 'input');
      });
      sample.script = script / 1000;
      if (i > 0) {
        process.stdout.write(`collection ${i}: ${JSON.stringify(sample)}\n`);
        samples.push(sample);
      }
    }
  } finally {
    await context.close();
  }
  return samples;
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
  const runs: Partial<Record<FigureKey, Sample>>[] = [];
  const load: number[] = [os.loadavg()[0]!];
  try {
    if (ONLY !== 'collection') {
      // One visit not measured: the server's code paths and PostgreSQL's caches are warm, as
      // in a running product.
      await visit(product.base, browser);
      for (let i = 0; i < RUNS; i++) {
        const run = await visit(product.base, browser);
        process.stdout.write(`run ${i + 1}: ${JSON.stringify(run)}\n`);
        runs.push(run);
      }
    }
    const collection = ONLY === 'visits' ? [] : await collect(product.base, browser, RUNS);
    collection.forEach((sample, i) => (runs[i] = { ...runs[i], collection: sample }));
  } finally {
    load.push(os.loadavg()[0]!);
    await browser.close();
    await product.stop();
  }
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const cpus = os.cpus().length;
  const mem = Math.round(os.totalmem() / 1024 ** 3);
  const measured = FIGURES.filter(({ key }) => runs.some((r) => r[key]));
  const run: Run = {
    label: LABEL,
    conditions: `${when} UTC, ${cpus} cores, ${mem} GiB, Node ${process.version}, Chromium ${browser.version()}, 1-min load average ${load.map((l) => l.toFixed(1)).join(' → ')} (the machine shared); median of ${RUNS} runs`,
    scope: ONLY === 'collection' ? 'collection' : '',
    cells: new Map(
      measured.map(({ key, name }) => [name, cell(median(runs.flatMap((r) => r[key] ?? [])))]),
    ),
  };
  process.stdout.write(`${LABEL}: ${run.conditions}\n`);
  for (const [name, value] of run.cells) process.stdout.write(`  ${name}: ${value}\n`);
  await writeBenchmarkSection('## Web delivery', await section(run));
}

type FigureKey = 'login' | 'signIn' | 'walletCold' | 'walletWarm' | 'collection';

const FIGURES: readonly { key: FigureKey; name: string; target: string }[] = [
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
  {
    key: 'collection',
    name: "Collection: grower's code to payout queued",
    target: `≤ ${s(TARGETS.collection.seconds)} s`,
  },
];

/**
 * One figure of a run: seconds · KiB · requests (of which to the server); where the script's
 * actions were timed apart, the machine's part and the script's.
 */
const cell = (x: Sample) =>
  `${s(x.seconds)} s${x.script === undefined ? '' : ` (machine ${s(x.seconds - x.script)} s, script ${s(x.script)} s)`} · ${kib(x.bytes)} KiB · ${x.requests} req. (${x.network} to the server)`;

interface Run {
  label: string;
  conditions: string;
  /** '' for a run of every figure; 'collection' for BENCH_ONLY=collection. */
  scope: string;
  /** Figure name → cell. */
  cells: Map<string, string>;
}

/** A label's conditions line: `- **After**: …` or, for one figure's run, `- **After** (collection): …`. */
const conditionsLine = (label: string, scope: string) =>
  `- **${label}**${scope ? ` (${scope})` : ''}: `;

/**
 * The section: one table, a column per label (Before, After), a row per figure; this run's
 * cells in place of the same label's, every other cell, conditions line and the notes below the
 * table kept as they were recorded ('—' where a label has no figure).
 */
async function section(run: Run): Promise<string[]> {
  const current = await readFile(path.join(root, 'docs/benchmarks.md'), 'utf8');
  const start = current.indexOf('## Web delivery');
  const lines = start < 0 ? [] : current.slice(start).split('\n## ')[0]!.split('\n');
  const labels: string[] = [];
  const cells = new Map<string, Map<string, string>>();
  const header = lines.findIndex((l) => l.startsWith('| Figure |'));
  let notes: string[] = [];
  if (header >= 0) {
    labels.push(
      ...lines[header]!.split('|')
        .slice(2, -2)
        .map((c) => c.trim()),
    );
    let end = header + 2;
    for (; end < lines.length && lines[end]!.startsWith('| '); end++) {
      const columns = lines[end]!.split('|').map((c) => c.trim());
      labels.forEach((label, i) => {
        if (columns[i + 2] && columns[i + 2] !== '—') {
          if (!cells.has(label)) cells.set(label, new Map());
          cells.get(label)!.set(columns[1]!, columns[i + 2]!);
        }
      });
    }
    notes = lines.slice(end);
  }
  const conditions = new Map(
    lines
      .filter((l) => l.startsWith('- **') && lines.indexOf(l) < header)
      .map((l) => [l.slice(0, l.indexOf(': ') + 2), l.slice(l.indexOf(': ') + 2)]),
  );
  conditions.set(conditionsLine(run.label, run.scope), run.conditions);
  if (!labels.includes(run.label)) labels.push(run.label);
  if (!cells.has(run.label)) cells.set(run.label, new Map());
  for (const [name, value] of run.cells) cells.get(run.label)!.set(name, value);
  const order = [...labels].sort((a, b) => rank(a) - rank(b));
  const keys = [...conditions.keys()].sort(
    (a, b) => rank(a.slice(4, a.indexOf('**', 4))) - rank(b.slice(4, b.indexOf('**', 4))),
  );
  return [
    '## Web delivery',
    '',
    'Measured by `npm run bench:web`: the product as `npm start` runs it (production web build, demo data) on a free port, driven by Chromium through playwright-core with Lighthouse’s mobile network profile applied through CDP (`Network.emulateNetworkConditions`: 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up), no CPU throttling, a 390 × 844 mobile viewport, the demo aggregator. First visit: a fresh browser context (empty cache) opens /auth/login until the form is shown. Sign-in: from “Se connecter” until the dashboard’s figures are shown. Wallet: /wallet until its balance is shown, first in the same page, then (return visit) in a new page of the same context, its code cached. Collection: on /centre-de-collecte (its code cached, opened anew for each weighing), from the Enter that submits the grower’s code (PRD-…) through picking his contract, the kilograms and the grade, to the confirmation’s “Le net est envoyé sur le mobile money du producteur.”; each run’s CONFIRMED contract for the demo grower is prepared beforehand through the API (the aggregator creates it, the grower confirms it) and not counted; the script fills and clicks without typing delays, and its actions’ own time is given apart from the machine’s (the product, the network, the browser). Each time is the page’s own: an init script installed in every page stamps, with `performance.now()`, the animation frame in which the awaited element first appears in the document (a DOM change schedules the check at the next frame), and the figure runs from the navigation’s start (first visit, wallet) or from the press or click that starts it (sign-in, collection); Playwright’s waits, which look at the page at growing intervals (0, 20, 70, 170, 270, 770 ms …), only say when to read the stamp. KiB: bytes received over the network (compressed where they are). Requests: every request the page made; to the server: those not answered by the browser’s cache or the service worker. The network profile applies to the page’s requests: what a service worker fetches for its own cache is not throttled. Each figure is the median of the runs; one visit (one weighing) before them is not measured (the server warm, as in a running product).',
    '',
    ...keys.map((key) => `${key}${conditions.get(key)}`),
    '',
    `| Figure | ${order.join(' | ')} | Target |`,
    `| --- | ${order.map(() => '---').join(' | ')} | --- |`,
    ...FIGURES.map(
      ({ name, target }) =>
        `| ${name} | ${order.map((l) => cells.get(l)?.get(name) ?? '—').join(' | ')} | ${target} |`,
    ),
    ...notes,
  ];
}

/** Before first, After second, any other label after them. */
const rank = (label: string) => (label === 'Before' ? 0 : label === 'After' ? 1 : 2);

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
