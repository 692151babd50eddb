import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import {
  browserMissingReason,
  explainFailures,
  launchBrowser,
  pollLikePages,
} from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { signedInPage } from './support/session.js';

const missing = browserMissingReason();
const PHONE = { width: 390, height: 844 };

/**
 * The wallet's and the payments' tables at 390 px: every row keeps its
 * amount, date and status on screen — the rows stack, each cell labelled by its column —
 * instead of pushing them beyond a horizontal scroll. Axe-checked.
 */
describe.skipIf(missing !== null)('tables at 390 px in Chromium', { timeout: 240_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The first data row's cells under `columns` are visible and inside the 390 px screen. */
  async function expectOnScreen(page: Page, table: string, columns: string[]) {
    const grid = page.getByRole('table', { name: table });
    const rows = grid.getByRole('row').filter({ has: page.getByRole('cell') });
    await rows.first().waitFor();
    const headers = await grid.getByRole('columnheader').allTextContents();
    for (const column of columns) {
      const index = headers.indexOf(column);
      expect(index, `column ${column} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
      const cell = rows.first().getByRole('cell').nth(index);
      expect(await cell.isVisible(), `${table}: ${column} visible`).toBe(true);
      expect((await cell.innerText()).trim(), `${table}: ${column} has text`).not.toBe('');
      const box = (await cell.boundingBox())!;
      expect(box.x, `${table}: ${column} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${table}: ${column} ends on screen`).toBeLessThanOrEqual(
        PHONE.width,
      );
    }
    // Nothing to scroll sideways: the page is as wide as the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
  }

  it("keeps amount, date and status on screen in the wallet's and the payments' tables", async () => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      'agregateur@demo.filiere.bj',
      server.password,
      '/wallet',
      { viewport: PHONE },
    );
    await page.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    await expectOnScreen(page, 'Transactions', ['Montant FCFA', 'Date', 'Statut']);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'wallet-390');
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${server.baseUrl}/paiements-effectues`);
    await page.getByRole('heading', { name: 'Paiements effectués' }).waitFor();
    await expectOnScreen(page, 'Paiements effectués', ['Montant FCFA', 'Date', 'Statut']);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'payments-390');
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
