import { mkdirSync } from 'node:fs';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceAt } from '@filiere/api/wallet';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import {
  browserMissingReason,
  explainFailures,
  launchBrowser,
  newPage,
} from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';

const missing = browserMissingReason();

/** The platform's auditor: the demo's ROLE_ACCOUNTING account, outside any organisation. */
const AUDITOR = 'auditeur@demo.filiere.bj';
const AGGREGATOR = 'agregateur@demo.filiere.bj';

const digits = (text: string | null) => (text ?? '').replace(/[^\d-]/g, '');

interface Verifier {
  runDue(): Promise<number>;
  verifyOnce(): Promise<{ status: 'OK' | 'BROKEN' } | null>;
}

/**
 * The auditor in a browser, on one server: signs in, sees 'Intégrité du
 * registre' OK once the background verification (driven here) has run, opens the
 * aggregator's wallet from the wallets list, reads its statement and its balance at an
 * instant (both equal to the API's point-in-time answer); then an event of the log is changed
 * by SQL, the verification runs, and the open panel turns BROKEN without a reload (the
 * `audit.integrity` push). Every screen axe-checked.
 */
describe.skipIf(missing !== null)('the auditor in Chromium', { timeout: 240_000 }, () => {
  explainFailures();
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let verifier: Verifier;
  let walletId = '';

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
    const db = server.db.db;
    walletId = String(
      (
        await db
          .selectFrom('users')
          .select('wallet_id')
          .where('email', '=', AGGREGATOR)
          .executeTakeFirstOrThrow()
      ).wallet_id,
    );
    verifier = (server.app as unknown as { ledgerAudit: { verifier: Verifier } }).ledgerAudit
      .verifier;
    while ((await verifier.runDue()) > 0);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const check = async (on: Page, name: string) => {
    await on.waitForLoadState('networkidle');
    await screenshot(on, name);
    expect(await seriousViolations(on), name).toEqual([]);
  };

  it('sees the integrity panel OK, then a wallet’s statement and its balance at an instant', async () => {
    page = await newPage(browser);
    await page.goto(`${server.baseUrl}/auth/login?redirect=${encodeURIComponent('/audit')}`);
    await page.getByLabel('Email').fill(AUDITOR);
    await page.getByLabel(/^Mot de passe/).fill(server.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/audit');
    const panel = page.getByRole('region', { name: 'Intégrité du registre' });
    await expect
      .poll(() => panel.getByTestId('integrity-status').textContent(), { timeout: 30_000 })
      .toBe('OK');
    await expect
      .poll(() => panel.textContent(), { timeout: 30_000 })
      .toMatch(/Dernière position vérifiée/);
    // The menu holds the auditor's entry.
    await page.getByRole('link', { name: 'Audit du registre' }).first().waitFor();
    await check(page, 'audit-integrity-ok');

    await page.getByPlaceholder('Rechercher par nom, e-mail ou téléphone').fill('Dossou');
    await page.getByRole('link', { name: 'Dossou Awa' }).click();
    await page.waitForURL((url) => url.pathname === '/wallet/releve');
    const statement = page.getByRole('region', { name: 'Relevé' });
    await statement.getByRole('table').locator('tbody tr').first().waitFor();
    // The closing balance is the balance now (the statement's range ends today).
    const now = new Date().toISOString();
    const history = server.db.db as never;
    const started = performance.now();
    const current = await balanceAt(history, walletId, now);
    const lookupMs = performance.now() - started;
    const events = await sql<{ n: string }>`select count(*)::text as n from events`.execute(
      server.db.db,
    );
    console.info(
      `point-in-time lookup on the demo ledger (${events.rows[0]!.n} events): ${lookupMs.toFixed(2)} ms`,
    );
    expect(current.balance).toBeGreaterThan(0);
    await expect
      .poll(async () => digits(await statement.getByTestId('card-closing').textContent()), {
        timeout: 30_000,
      })
      .toBe(String(current.balance));
    await check(page, 'audit-statement');

    // The balance at an instant (Benin time): the same figure as the API's lookup.
    const local = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const at = new Date(`${local}+01:00`).toISOString();
    const expected = await balanceAt(history, walletId, at);
    const ask = page.getByRole('region', { name: 'Solde à un instant' });
    await ask.getByLabel('Date et heure (heure du Bénin)').fill(local);
    await ask.getByRole('button', { name: 'Consulter' }).click();
    await expect
      .poll(async () => digits(await ask.getByTestId('card-balanceAt').textContent()), {
        timeout: 30_000,
      })
      .toBe(String(expected.balance));
    await check(page, 'audit-balance-at');
  });

  it('turns BROKEN live when an event of the log is changed and the verification runs', async () => {
    await page.goto(`${server.baseUrl}/audit`);
    const panel = page.getByRole('region', { name: 'Intégrité du registre' });
    await expect
      .poll(() => panel.getByTestId('integrity-status').textContent(), { timeout: 30_000 })
      .toBe('OK');
    await page.waitForLoadState('networkidle');
    // Someone with database access changes one old event in place.
    await sql`update events set metadata = metadata || '{"tampered": true}'::jsonb
      where position = 3`.execute(server.db.db);
    let status: string | undefined = 'OK';
    for (let i = 0; i < 100 && status === 'OK'; i++) status = (await verifier.verifyOnce())?.status;
    expect(status).toBe('BROKEN');
    await expect
      .poll(() => panel.getByTestId('integrity-status').textContent(), { timeout: 30_000 })
      .toBe('ROMPUE');
    await expect
      .poll(() => panel.textContent(), { timeout: 30_000 })
      .toMatch(/rompue à la position 3/);
    await check(page, 'audit-integrity-broken');
  });
});
