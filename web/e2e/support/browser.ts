import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, vi } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
/**
 * Debian's headless shell of the same Chromium (package chromium-headless-shell): the
 * renderer without the desktop browser's UI layers, which Playwright itself prefers for
 * headless runs; a page costs it less CPU than the full browser in headless mode. Used when
 * installed, the full browser otherwise.
 */
export const CHROMIUM_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
/**
 * How long a browser test waits for the page (locators and `expect.poll` alike): in
 * `npm test` the browser shares two cores with the rest of the suite.
 */
export const PAGE_WAIT_MS = 30_000;

/** Why browser tests cannot run here, or null; with CI=true a missing browser is a failure. */
export function browserMissingReason(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `${CHROMIUM} is missing (apt-get install -y chromium)`;
  if (process.env.CI === 'true') throw new Error(`CI=true: ${reason}`);
  console.warn(`Skipping browser tests: ${reason}`);
  return reason;
}

/**
 * Where the browser's non-loopback requests go: a local port that closes every connection
 * at once, so no request leaves the machine (map tiles, fonts, a provider's CDN). Chromium
 * never sends loopback through its proxy, so the app under test is reached directly.
 * This replaces a `context.route('**')` filter: routing every request through Node cost a
 * round trip per request and turned Chromium's HTTP cache off (each navigation fetched and
 * compiled the whole bundle again).
 */
let deadEnd: Promise<Server> | undefined;
function deadEndProxy(): Promise<Server> {
  deadEnd ??= new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve(server);
    });
  });
  return deadEnd;
}

async function startBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const proxy = (await deadEndProxy()).address() as AddressInfo;
  return chromium.launch({
    executablePath: existsSync(CHROMIUM_HEADLESS_SHELL) ? CHROMIUM_HEADLESS_SHELL : CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--proxy-server=http://127.0.0.1:${proxy.port}`,
      ...extraArgs,
    ],
  });
}

/**
 * A Chromium of its own whose camera films `y4mFile` (a YUV4MPEG2 video, looped) and whose
 * camera permission is granted without asking: for the screens that scan a QR code. The
 * caller closes it.
 */
export function launchBrowserWithCamera(y4mFile: string): Promise<Browser> {
  return startBrowser([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${y4mFile}`,
  ]);
}

/**
 * One Chromium per test worker process, handed to its browser test files in turn (a worker's
 * files share one process: vitest.config.ts): a launch costs ~1.8 s of CPU, which 24 files
 * paid each. It is launched as soon as a file imports this module, so that it starts while
 * the file's server starts, and again if it died. What a file gets closes, on `close()`, the
 * contexts it opened, not the browser: the next file starts from a browser without pages.
 * Playwright kills the browser when the worker process exits. A file whose browser is missing
 * launches none; a failed launch reaches the file that asked and is tried again by the next.
 */
let shared: Promise<Browser> | undefined = existsSync(CHROMIUM) ? startBrowser() : undefined;
shared?.catch(() => undefined);

export async function launchBrowser(): Promise<Browser> {
  const launching = (shared ??= startBrowser());
  let browser: Browser;
  try {
    browser = await launching;
  } catch (error) {
    if (shared === launching) shared = undefined;
    throw error;
  }
  if (!browser.isConnected()) {
    if (shared === launching) shared = undefined;
    return launchBrowser();
  }
  const closeContexts = async () => {
    await Promise.all(browser.contexts().map((context) => context.close()));
  };
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'close') return closeContexts;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

let clientIp = 0;

/**
 * A client address of its own (sent as X-Forwarded-For; the API trusts its proxy), so the
 * per-IP login limit does not count the whole suite as one client.
 */
export function nextClientAddress(): string {
  const n = ++clientIp;
  return `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

export interface ContextOptions {
  /** The client address the context's requests name (default: a new one). */
  clientAddress?: string;
  /** Default 1280 × 800. */
  viewport?: { width: number; height: number };
  /**
   * Default 'block': the app's service worker would download the whole shell into its cache
   * in every context of every file; delivery.test.ts, whose subject it is, allows it.
   */
  serviceWorkers?: 'allow' | 'block';
}

/**
 * French locale, Porto-Novo time, every non-loopback request refused (launchBrowser's
 * proxy). Each context has its own client address (nextClientAddress).
 */
export async function newContext(
  browser: Browser,
  options: ContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: 'fr-FR',
    timezoneId: 'Africa/Porto-Novo',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    serviceWorkers: options.serviceWorkers ?? 'block',
    extraHTTPHeaders: { 'x-forwarded-for': options.clientAddress ?? nextClientAddress() },
  });
  await context.addInitScript(stillPage);
  return context;
}

/**
 * No CSS transition or animation runs in the tested pages: each frame of a modal's fade or a
 * loader's spin is painted and composited in software here: 20 % of Chromium's CPU in six
 * browser files. The app's own timers (a transition's duration before 'entered') still run, so
 * what the tests see happens as in a user's browser, minus the frames in between.
 */
function stillPage(): void {
  const style = document.createElement('style');
  style.textContent =
    '*, *::before, *::after { transition: none !important; animation: none !important; }';
  const add = () => (document.head ?? document.documentElement).appendChild(style);
  if (document.documentElement) add();
  else document.addEventListener('DOMContentLoaded', add, { once: true });
}

export async function newPage(browser: Browser, options: ContextOptions = {}): Promise<Page> {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_WAIT_MS);
  // Uncaught errors in the app show in the test output.
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  record(page);
  return page;
}

/** What happened in each open page, kept so that a failed test can say why. */
const journals = new Map<Page, string[]>();
const JOURNAL_LINES = 200;

function record(page: Page): void {
  const journal: string[] = [];
  journals.set(page, journal);
  const note = (line: string) => {
    journal.push(`${new Date().toISOString()} ${line}`);
    if (journal.length > JOURNAL_LINES) journal.shift();
  };
  page.on('close', () => journals.delete(page));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`navigated ${frame.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      note(`console.${message.type()} ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => note(`pageerror ${error.stack ?? error.message}`));
  page.on('requestfailed', (request) =>
    note(`failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`),
  );
  page.on('response', (response) => {
    const url = response.url();
    if (url.includes('/api/') || response.status() >= 400) {
      const line = `${response.status()} ${response.request().method()} ${url}`;
      if (response.status() < 400) return note(line);
      void response.text().then(
        (body) => note(`${line} ${body.slice(0, 300)}`),
        () => note(line),
      );
    }
  });
}

/** Where a failure's pages are saved: a folder that outlives the run (test/global-setup.ts). */
const reportsDir = () => process.env.FILIERE_TEST_REPORTS_DIR || os.tmpdir();

/**
 * Call in a `describe`: when one of its tests fails, every page still open is saved (a
 * full-page PNG, its URL, storage and its last navigations, API answers, failed requests
 * and console errors) under a temporary directory whose paths are printed, so a failure
 * in a loaded run explains itself.
 */
export function explainFailures(): void {
  beforeEach(({ onTestFailed }) => {
    onTestFailed(async ({ task }) => {
      const dir = mkdtempSync(path.join(reportsDir(), 'filiere-e2e-failure-'));
      const report: string[] = [];
      let n = 0;
      for (const [page, journal] of journals) {
        const base = path.join(dir, `page-${++n}`);
        const state = await page
          .evaluate(() => ({
            title: document.title,
            text: document.body?.innerText.slice(0, 2000) ?? '',
            localStorage: { ...localStorage },
            sessionStorage: { ...sessionStorage },
          }))
          .catch((error: Error) => ({ unreadable: error.message }));
        await page
          .screenshot({ path: `${base}.png`, fullPage: true, timeout: 10_000 })
          .catch((error: Error) => journal.push(`screenshot failed: ${error.message}`));
        const text = [
          `test: ${task.name}`,
          `url: ${page.url()}`,
          `state: ${JSON.stringify(state, null, 2)}`,
          '--- journal (oldest first) ---',
          ...journal,
        ].join('\n');
        writeFileSync(`${base}.txt`, text);
        report.push(`${base}.png (${page.url()})`, `${base}.txt, ending:`, ...journal.slice(-12));
      }
      console.error(`[e2e] "${task.name}" failed; open pages:\n  ${report.join('\n  ')}`);
    });
  });
}

/**
 * Call in a `describe`: its `expect.poll`s wait as long as the page's locators, not vitest's
 * 1 s default (made for unit tests). A screen that renders its data after 1.5 s on a loaded
 * machine is not a failure; a poll with its own `timeout` keeps it.
 */
export function pollLikePages(): void {
  beforeAll(() => {
    vi.setConfig({ expect: { poll: { timeout: PAGE_WAIT_MS, interval: 100 } } });
  });
  afterAll(() => vi.resetConfig());
}
