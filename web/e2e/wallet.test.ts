import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
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
import { movementsTable, signedInPage } from './support/session.js';

const missing = browserMissingReason();

const AGGREGATOR = 'agregateur@demo.filiere.bj';
const SUPER_ADMIN = 'superadmin@demo.filiere.bj';
const GROWER = 'Basile Ahouandjinou';

/** The digits of a text ('1 234 F CFA' → 1234), whatever spaces Intl used. */
const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, '') || 'NaN');

describe.skipIf(missing !== null)('wallet screens in Chromium', () => {
  explainFailures();
  // A poll waits as long as a locator: the validated row leaves the admin's list after its
  // refetch, 2.8 s after the command in a run at load 27 (vitest's default poll gives up at 1 s).
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let aggregator: Page;
  let signedIn = false;
  /** The aggregator's page, signed in by the first test or here when it failed. */
  const ensureAggregator = async () => {
    if (!signedIn) {
      aggregator = await signIn(AGGREGATOR, '/wallet');
      signedIn = true;
    }
  };

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    // The read tables follow the ledger and pushes reach the hub, as in `npm start`.
    server = await startE2eServer();
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Signed in through the API (the login form is identity.test.ts's subject). */
  const signIn = (email: string, target: string): Promise<Page> =>
    signedInPage(browser, server.baseUrl, email, server.password, target);

  /** axe: no serious or critical violation; and a screenshot for review. */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  /** The side card's balance, revealed by its eye. */
  const cardBalance = async (page: Page): Promise<number> => {
    const eye = page.getByRole('button', { name: 'Afficher le solde' });
    if (await eye.count()) await eye.first().click();
    return digits(await page.getByTestId('wallet-balance').first().textContent());
  };

  it('tops up through the sandbox widget and sees the balance change without reload', async () => {
    aggregator = await signIn(AGGREGATOR, '/approvisionnements');
    signedIn = true;
    await aggregator.getByRole('heading', { name: 'Approvisionnements' }).waitFor();
    await check(aggregator, 'wallet-supplies');
    const before = await cardBalance(aggregator);
    expect(Number.isFinite(before)).toBe(true);
    // A marker that a reload would wipe.
    await aggregator.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

    await aggregator.getByRole('button', { name: 'Nouvel approvisionnement' }).click();
    await expect.poll(() => new URL(aggregator.url()).searchParams.get('showModal')).toBe('1');
    const dialog = aggregator.getByRole('dialog');
    await dialog.getByLabel('Montant').fill('500000');
    expect(await dialog.getByLabel('Montant').inputValue()).toMatch(/^500\s000$/);
    await check(aggregator, 'wallet-supply-modal');
    // The sandbox widget opens in a payment window, which closes once paid.
    const [widget] = await Promise.all([
      aggregator.waitForEvent('popup'),
      dialog.getByRole('button', { name: 'Valider' }).click(),
    ]);
    await widget.getByRole('button', { name: 'Payer' }).click();
    await aggregator.getByText('Approvisionnement effectuée avec succès').waitFor();

    await expect.poll(() => cardBalance(aggregator), { timeout: 15_000 }).toBe(before + 500_000);
    await expect
      .poll(() => aggregator.getByTestId('supply-available').textContent().then(digits))
      .toBe(before + 500_000);
    expect(await aggregator.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(
      42,
    );
    await aggregator.getByRole('cell', { name: 'Succès' }).first().waitFor();
    await check(aggregator, 'wallet-supplies-after');
  }, 90_000);

  it('transfers to a grower of its cluster after the confirm step', async () => {
    await ensureAggregator();
    await aggregator.goto(`${server.baseUrl}/wallet`);
    await aggregator.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    await aggregator.getByTestId('yearly-chart').waitFor();
    await check(aggregator, 'wallet');
    const before = digits(await aggregator.getByTestId('wallet-available').textContent());

    await aggregator.getByRole('button', { name: 'Transférer' }).click();
    const dialog = aggregator.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Suivant', exact: true }).click();
    await dialog.getByText("Vous n'avez pas sélectionné le destinataire").waitFor();
    await dialog.getByLabel('Destinataire').fill('Basile');
    await aggregator.getByRole('option', { name: new RegExp(GROWER) }).click();
    await dialog.getByRole('button', { name: 'Suivant', exact: true }).click();
    await dialog.getByLabel('Montant').fill('25000');
    await dialog.getByLabel('Motif').fill('Avance de campagne');
    await check(aggregator, 'wallet-transfer-info');
    await dialog.getByRole('button', { name: 'Suivant', exact: true }).click();
    const confirm = await dialog.getByTestId('transfer-confirm').textContent();
    expect(confirm?.replace(/\s/g, ' ')).toBe(
      `Êtes-vous sûr de vouloir transférer 25 000 FCFA à ${GROWER}`,
    );
    expect(await dialog.getByRole('button', { name: 'Annuler' }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Oui, envoyer' }).click();
    await dialog.getByTestId('transfer-success').waitFor();
    await dialog.getByRole('button', { name: 'Terminer' }).click();

    await expect
      .poll(() => aggregator.getByTestId('wallet-available').textContent().then(digits))
      .toBe(before - 25_000);
    await aggregator.getByRole('cell', { name: 'Transfert' }).first().waitFor();
  }, 90_000);

  it('downloads the transactions as an .xlsx that opens with the right rows', async () => {
    await ensureAggregator();
    await aggregator.goto(`${server.baseUrl}/wallet`);
    await aggregator.getByRole('cell', { name: 'Transfert' }).first().waitFor();
    const references = await movementsTable(aggregator)
      .locator('tbody tr td:first-child')
      .allTextContents();
    const [download] = await Promise.all([
      aggregator.waitForEvent('download'),
      aggregator.getByRole('button', { name: 'Télécharger' }).click(),
    ]);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'wallet-xlsx-')), 'tx.xlsx');
    await download.saveAs(file);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const sheet = book.worksheets[0]!;
    const cells: string[] = [];
    sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text))));
    for (const reference of references) expect(cells).toContain(reference);
    expect(sheet.rowCount).toBeGreaterThanOrEqual(references.length + 1);
  }, 90_000);

  it('lets the super admin validate a bank supply by retyping its reference', async () => {
    await ensureAggregator();
    await aggregator.goto(`${server.baseUrl}/approvisionnements?tab=bank&showModal=1`);
    const dialog = aggregator.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Virement bancaire' }).check({ force: true });
    await dialog.getByLabel('Montant').fill('1200000');
    await dialog.getByRole('button', { name: 'Valider' }).click();
    const reference = (await aggregator.getByTestId('bank-reference').textContent())!;
    expect(await aggregator.getByTestId('bank-account').textContent()).toMatch(/\w{5,}/);
    await check(aggregator, 'wallet-bank-info');
    await aggregator.getByRole('button', { name: "J'ai compris" }).click();
    // The page refetches on its own 1 s and 3 s after its own command; past that,
    // only a websocket push can change what the aggregator's open page shows. Those
    // 3.5 s run while the super admin opens the supply (nothing changes until 'Valider').
    const settled = new Promise((resolve) => setTimeout(resolve, 3500));

    const admin = await signIn(SUPER_ADMIN, '/admin/approvisionnements');
    await admin.getByRole('heading', { name: 'Validation des approvisionnements' }).waitFor();
    await admin.getByRole('searchbox', { name: 'Rechercher' }).fill(reference);
    await admin.getByRole('button', { name: `Valider ${reference}` }).click();
    const modal = admin.getByRole('dialog');
    expect(await modal.getByTestId('validate-reference').textContent()).toBe(reference);
    const submit = modal.getByRole('button', { name: 'Valider', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await modal.getByLabel('Ressaisir la référence').fill(reference.toLowerCase() + 'x');
    expect(await submit.isDisabled()).toBe(true);
    await check(admin, 'wallet-admin-validate');
    await modal.getByLabel('Ressaisir la référence').fill(reference);
    expect(await submit.isDisabled()).toBe(false);
    await settled;
    const before = await cardBalance(aggregator);
    await submit.click();
    await admin.getByText('Approvisionnement validé').waitFor();
    await expect
      .poll(() => admin.getByRole('button', { name: `Valider ${reference}` }).count())
      .toBe(0);
    // The list, once the modal has closed: axe would measure its fading title's contrast.
    await modal.waitFor({ state: 'detached' });
    await check(admin, 'wallet-admin-supplies');
    // The super admin's validation reaches the aggregator's open page by push.
    await expect.poll(() => cardBalance(aggregator), { timeout: 20_000 }).toBe(before + 1_200_000);
  }, 90_000);

  it('shows payments, a payment detail and financings without serious accessibility violations', async () => {
    await ensureAggregator();
    await aggregator.goto(`${server.baseUrl}/paiements-effectues`);
    await aggregator.getByRole('heading', { name: 'Paiements effectués' }).waitFor();
    await aggregator.getByRole('cell', { name: GROWER }).first().waitFor();
    await check(aggregator, 'wallet-payments');
    await aggregator
      .getByRole('link', { name: /^Voir détails de / })
      .first()
      .click();
    await aggregator.getByRole('heading', { name: /^Détail paiement de / }).waitFor();
    await check(aggregator, 'wallet-payment-detail');
    await aggregator.goto(`${server.baseUrl}/financements`);
    await aggregator.getByRole('heading', { name: 'Financements' }).waitFor();
    await aggregator.getByRole('button', { name: 'Financer un agrégateur' }).click();
    await aggregator.getByRole('dialog').waitFor();
    await check(aggregator, 'wallet-financing-modal');
  }, 90_000);

  it('links Mon Wallet to its statement (/wallet/releve)', async () => {
    await ensureAggregator();
    await aggregator.goto(`${server.baseUrl}/wallet`);
    const link = aggregator.getByRole('main').getByRole('link', { name: 'Relevé du portefeuille' });
    await link.waitFor();
    await check(aggregator, 'wallet-page');
    await link.click();
    await aggregator.waitForURL((url) => url.pathname === '/wallet/releve');
    await aggregator.getByRole('heading', { name: 'Relevé du portefeuille' }).waitFor();
  }, 60_000);

  it('keeps a websocket open at /api/ws with the access token', async () => {
    await ensureAggregator();
    const sockets: string[] = [];
    const frames: string[] = [];
    aggregator.on('websocket', (ws) => {
      sockets.push(ws.url());
      ws.on('framereceived', (frame) => frames.push(String(frame.payload)));
    });
    await aggregator.goto(`${server.baseUrl}/wallet`);
    await aggregator.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    await expect
      .poll(() => frames.some((f) => JSON.parse(f).type === 'ready'), { timeout: 15_000 })
      .toBe(true);
    expect(sockets.at(-1)).toMatch(/\/api\/ws\?token=[\w-]+\.[\w-]+\.[\w-]+$/);
  }, 60_000);

  it("asks each of the wallet's reads once when /wallet opens, its socket's first 'ready' included", async () => {
    await ensureAggregator();
    const reads: string[] = [];
    let ready = false;
    const onRequest = (request: { method(): string; url(): string }) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname.startsWith('/api/wallet'))
        reads.push(url.pathname + url.search);
    };
    aggregator.on('request', onRequest);
    aggregator.on('websocket', (ws) =>
      ws.on('framereceived', (frame) => {
        if (JSON.parse(String(frame.payload)).type === 'ready') ready = true;
      }),
    );
    try {
      await aggregator.goto(`${server.baseUrl}/wallet`);
      await aggregator.getByTestId('wallet-available').filter({ hasText: /\d/ }).waitFor();
      await expect.poll(() => ready, { timeout: 15_000 }).toBe(true);
      await aggregator.waitForLoadState('networkidle');
    } finally {
      aggregator.off('request', onRequest);
    }
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((read, i) => reads.indexOf(read) !== i)).toEqual([]);
  }, 60_000);
});
