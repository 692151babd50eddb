import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import { browserMissingReason, explainFailures, launchBrowser } from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { signedInPage } from './support/session.js';

const missing = browserMissingReason();

const AGGREGATOR = 'agregateur@demo.filiere.bj';
const USERS_ME = '**/api/users/me';

/**
 * The signed-in area's guard asks /users/me before each first screen. Only the server's 401
 * ends the session: a check cut short (the page reloaded while it was under way), an
 * unreachable server or a server error keep the token, so a reload right after signing in
 * never signs the user out.
 */
describe.skipIf(missing !== null)('the session in Chromium', () => {
  explainFailures();
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The aggregator, signed in and on its wallet screen. */
  /** Signed in through the API: the session the web app keeps, as its login form leaves it. */
  const signedIn = async (): Promise<Page> => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      AGGREGATOR,
      server.password,
      '/wallet',
    );
    await page.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    return page;
  };
  const token = (page: Page) => page.evaluate(() => localStorage.getItem('access_token'));

  it('a reload while the signed-in check is under way keeps the session', async () => {
    const page = await signedIn();
    const signedToken = await token(page);
    expect(signedToken).toBeTruthy();

    // The server's next /users/me waits on a lock of the users table: the page is reloaded
    // while that check is under way, which cuts it short (as a reload or a second visit
    // right after signing in does).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const lock = server.db.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE users IN ACCESS EXCLUSIVE MODE`.execute(trx);
      locked();
      await released;
    });
    await lockTaken;
    try {
      const asked = page.waitForRequest((r) => r.url().endsWith('/api/users/me'));
      await page.goto(`${server.baseUrl}/wallet`, { waitUntil: 'commit' });
      await asked;
      const cut = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/users/me'));
      const reload = page.goto(`${server.baseUrl}/wallet`);
      await cut;
      release();
      await reload;
    } finally {
      release();
      await lock;
    }

    await page.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/wallet');
    expect(await token(page)).toBe(signedToken);
    await page.context().close();
  }, 90_000);

  it('an unreachable server or a server error keeps the session: a French message, then Réessayer', async () => {
    const page = await signedIn();
    const signedToken = await token(page);
    const failures: [string, (route: Parameters<Parameters<Page['route']>[1]>[0]) => unknown][] = [
      ['unreachable', (route) => route.abort('connectionrefused')],
      ['server error', (route) => route.fulfill({ status: 503, json: { statusCode: 503 } })],
    ];
    for (const [name, fail] of failures) {
      // No copy of the user on this browser (the offline case below has one).
      await page.evaluate(() => localStorage.removeItem('last_user'));
      await page.route(USERS_ME, fail);
      await page.goto(`${server.baseUrl}/wallet`);
      await page
        .getByRole('alert')
        .filter({ hasText: 'Une erreur inattendue est survenue' })
        .waitFor();
      expect(new URL(page.url()).pathname, name).toBe('/wallet');
      expect(await token(page), name).toBe(signedToken);
      await screenshot(page, `session-error-${name.replace(' ', '-')}`);
      expect(await seriousViolations(page), name).toEqual([]);

      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await page.getByRole('button', { name: 'Réessayer' }).click();
      await page.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
      expect(await token(page), name).toBe(signedToken);
    }
    // With the copy of the last /users/me answer for this token, an unreachable server opens
    // the signed-in screens (field work offline); a server error still shows the error.
    await page.route(USERS_ME, (route) => route.abort('connectionrefused'));
    await page.goto(`${server.baseUrl}/wallet`);
    await page.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    expect(await token(page)).toBe(signedToken);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.route(USERS_ME, (route) =>
      route.fulfill({ status: 503, json: { statusCode: 503 } }),
    );
    await page.goto(`${server.baseUrl}/wallet`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'Une erreur inattendue est survenue' })
      .waitFor();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.context().close();
  }, 90_000);

  it('an address the app has no screen for says so in French, with a way home', async () => {
    const page = await signedIn();
    await page.goto(`${server.baseUrl}/adresse-inconnue`);
    await page.getByRole('heading', { name: 'Page introuvable' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await page.waitForURL((url) => url.pathname !== '/adresse-inconnue');
    await page.context().close();
  }, 90_000);

  it('a token the server no longer accepts (401) still signs out, to the login page', async () => {
    const page = await signedIn();
    // A password change, deactivation or role change bumps the version: older tokens are revoked.
    await server.db.db
      .updateTable('users')
      .set({ token_version: sql`token_version + 1` })
      .where('email', '=', AGGREGATOR)
      .execute();
    await page.goto(`${server.baseUrl}/wallet`);
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/wallet');
    expect(await token(page)).toBeNull();
    await page.context().close();
  }, 90_000);
});
