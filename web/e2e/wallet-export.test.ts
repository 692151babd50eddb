import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTransactionRows,
  readSheet,
} from '../../services/api/src/wallet/export/testing/export-fixtures.js';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import {
  browserMissingReason,
  explainFailures,
  launchBrowser,
  newPage,
} from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';

const missing = browserMissingReason();
const AGGREGATOR = 'agregateur@demo.filiere.bj';
const ADDED = 3_000;

describe.skipIf(missing !== null)('large transaction export in Chromium', () => {
  explainFailures();
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let expectedRows: number;
  const downloads = mkdtempSync(path.join(tmpdir(), 'wallet-export-'));

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    // Above 100 rows the export is a background job, written 500 rows at a time with a
    // pause per page, so its progress can be seen.
    server = await startE2eServer({
      exports: { syncLimit: 100, pageSize: 500, pageDelayMs: 300, progressMs: 0 },
    });
    browser = await launchBrowser();
    const { wallet_id: walletId } = await server.db.db
      .selectFrom('users')
      .select('wallet_id')
      .where('email', '=', AGGREGATOR)
      .executeTakeFirstOrThrow();
    await addTransactionRows(server.db.db, walletId as string, ADDED);
    const { n } = await server.db.db
      .selectFrom('wallet_transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('wallet_id', '=', walletId)
      .executeTakeFirstOrThrow();
    expectedRows = Number(n);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(downloads, { recursive: true, force: true });
  });

  it('shows the progress pushed over the websocket, then downloads the file with every row', async () => {
    page = await newPage(browser);
    await page.goto(`${server.baseUrl}/auth/login?redirect=${encodeURIComponent('/wallet')}`);
    await page.getByLabel('Email').fill(AGGREGATOR);
    await page.getByLabel(/^Mot de passe/).fill(server.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/wallet');

    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Télécharger', exact: true }).click();
    const panel = page.getByTestId('download-progress');
    // A percentage strictly between 0 and 100 only comes from the job's progress pushes.
    await panel
      .getByText(/^Préparation du fichier… ([1-9]|[1-9]\d) %$/)
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(() => panel.getByRole('progressbar').getAttribute('aria-valuenow'))
      .not.toBe('0');
    await screenshot(page, 'wallet-export-progress');

    const file = path.join(downloads, 'transactions.xlsx');
    await (await download).saveAs(file);
    const link = panel.getByRole('link', { name: 'Télécharger le fichier' });
    await link.waitFor();
    expect(await link.getAttribute('download')).toBe('transactions.xlsx');
    await screenshot(page, 'wallet-export-ready');
    expect(await seriousViolations(page)).toEqual([]);

    const rows = await readSheet(file);
    expect(rows).toHaveLength(expectedRows + 1);
    expect(rows[0]![0]).toBe('Référence');
    expect(rows.at(-1)!.slice(0, 2)).toEqual([`REF-${ADDED}`, 'Transfert']);
  }, 120_000);
});
