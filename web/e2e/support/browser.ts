import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why browser tests cannot run here, or null; with CI=true a missing browser is a failure. */
export function browserMissingReason(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `${CHROMIUM} is missing (apt-get install -y chromium)`;
  if (process.env.CI === 'true') throw new Error(`CI=true: ${reason}`);
  console.warn(`Skipping browser tests: ${reason}`);
  return reason;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

let clientIp = 0;

/**
 * French locale, Porto-Novo time, every non-loopback request aborted. Each
 * context has its own client address (X-Forwarded-For; the API trusts its
 * proxy) so the per-IP login limit does not count the whole suite as one client.
 */
export async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: 'fr-FR',
    timezoneId: 'Africa/Porto-Novo',
    viewport: { width: 1280, height: 800 },
    extraHTTPHeaders: { 'x-forwarded-for': `10.77.0.${++clientIp}` },
  });
  await context.route('**', (route) => {
    const host = new URL(route.request().url()).hostname;
    const loopback = host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
    return loopback || route.request().url().startsWith('data:') ? route.continue() : route.abort();
  });
  return context;
}

export async function newPage(browser: Browser): Promise<Page> {
  const context = await newContext(browser);
  const page = await context.newPage();
  // Generous: in `npm test` the browser shares two cores with the rest of the suite.
  page.setDefaultTimeout(30_000);
  // Uncaught errors in the app show in the test output.
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  return page;
}
