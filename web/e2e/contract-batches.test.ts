import { mkdirSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUser } from '../../services/api/src/identity/test-support.js';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import {
  browserMissingReason,
  explainFailures,
  launchBrowser,
  newPage,
  pollLikePages,
} from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';

const missing = browserMissingReason();
const AGGREGATOR = 'agregateur@demo.filiere.bj';
const ROWS = 200;
/** Per sub-contract: 200 × 1 000 F CFA fit the demo aggregator's wallet. */
const AMOUNT = 1_000;

/**
 * 'Create many' in a browser, on one server: the aggregator uploads a
 * 200-row .xlsx generated here for 200 growers created here, sees 'Le fichier contient 200
 * producteurs' with pages of 10, validates, and lands on the parent's 200 sub-contracts; a
 * .csv with a bad row is refused whole with the row's line, column and reason. Every screen
 * axe-checked (the parents, the advance families too).
 */
describe.skipIf(missing !== null)('contract batches in Chromium', { timeout: 300_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  const growers: { reference: string; plot: string }[] = [];

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
    const db = server.db.db;
    const { cluster_id: clusterId } = await db
      .selectFrom('users')
      .select('cluster_id')
      .where('email', '=', AGGREGATOR)
      .executeTakeFirstOrThrow();
    for (let i = 0; i < ROWS; i += 1) {
      const user = await seedUser(db, 'ROLE_GROWER', { clusterId });
      const grower = await db
        .insertInto('growers')
        .values({
          user_id: user.id,
          cluster_id: clusterId!,
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
        })
        .returning(['id', 'reference'])
        .executeTakeFirstOrThrow();
      await db
        .insertInto('plots')
        .values({
          grower_id: grower.id,
          product_type: 'CAYENNE_LISSE',
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
          name: `Lot ${i + 1}`,
          area_sown: '1',
        })
        .execute();
      growers.push({ reference: grower.reference, plot: `Lot ${i + 1}` });
    }
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const check = async (name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  const choose = async (name: string, mimeType: string, buffer: Buffer) => {
    await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
    await page.getByRole('button', { name: 'Vérifier le fichier' }).click();
  };

  it('uploads a 200-row .xlsx, shows its real rows, and Valider creates the parent with its 200 sub-contracts', async () => {
    page = await newPage(browser);
    await page.goto(
      `${server.baseUrl}/auth/login?redirect=${encodeURIComponent('/contrats/lots')}`,
    );
    await page.getByLabel('Email').fill(AGGREGATOR);
    await page.getByLabel(/^Mot de passe/).fill(server.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/contrats/lots');
    await page.getByRole('heading', { name: 'Contrats parents' }).waitFor();
    await check('contract-batches-parents-empty');

    await page.getByRole('link', { name: 'Créer plusieurs contrats' }).click();
    await page.waitForURL((url) => url.pathname === '/contrats/lots/create');
    await check('contract-batches-create');

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Contrats');
    sheet.addRow([
      'Référence producteur',
      'Téléphone',
      'Parcelle',
      'Quantité (t)',
      'Montant (FCFA)',
      'Date de livraison',
    ]);
    for (const g of growers) sheet.addRow([g.reference, '', g.plot, '1.5', AMOUNT, '']);
    await choose(
      'contrats.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      Buffer.from(await workbook.xlsx.writeBuffer()),
    );
    await page.waitForURL((url) => url.pathname.startsWith('/contrats/lots/apercu/'));
    await page.getByText('Le fichier contient 200 producteurs').waitFor();
    // The file's real rows, ten per page.
    await page.getByRole('cell', { name: growers[0]!.reference, exact: true }).waitFor();
    expect(await page.getByRole('row').count()).toBe(11);
    await check('contract-batches-preview');
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await page.getByRole('cell', { name: growers[10]!.reference, exact: true }).waitFor();

    await page.getByRole('button', { name: 'Valider' }).click();
    await page.waitForURL((url) => /^\/contrats\/lots\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.getByRole('heading', { name: /^Sous-contrats de LIVP-/ }).waitFor();
    // The read model follows: 200 sub-contracts, pages of 10.
    await expect
      .poll(async () => page.getByText(/200\s*Sous-contrats|Sous-contrats\s*200/).count(), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    await page
      .getByRole('cell', { name: /Lot \d+/ })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await page.getByRole('row').count()).toBe(11);
    await check('contract-batches-subcontracts');

    const { count } = await server.db.db
      .selectFrom('delivery_contracts')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('parent_id', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBeGreaterThanOrEqual(ROWS);

    await page.goto(`${server.baseUrl}/contrats/lots`);
    await page
      .getByText(/200 sous-contrats/)
      .first()
      .waitFor();
    await check('contract-batches-parents');
  });

  it('refuses a .csv with a bad row whole, showing its line, column and reason', async () => {
    await page.goto(`${server.baseUrl}/contrats/lots/create`);
    const csv = [
      'Référence producteur;Téléphone;Parcelle;Quantité (t);Montant (FCFA);Date de livraison',
      `${growers[0]!.reference};;${growers[0]!.plot};2;5000;`,
      `${growers[1]!.reference};;${growers[1]!.plot};1.2345;5000;`,
    ].join('\n');
    await choose('contrats.csv', 'text/csv', Buffer.from(csv));
    const problems = page.getByTestId('file-problems');
    await problems.waitFor();
    const row = problems.getByRole('row').filter({ hasText: 'Quantité (t)' });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      '3',
      'Quantité (t)',
      'Entré non valide : une quantité en tonnes, au plus trois décimales, non nulle',
    ]);
    expect(page.url()).toContain('/contrats/lots/create');
    await check('contract-batches-refused');

    // The advance families' lists: search, filter, empty state.
    await page.goto(`${server.baseUrl}/contrats/avance-ananas`);
    await page.getByRole('heading', { name: 'Avances sur ananas' }).waitFor();
    await check('contract-advances-pineapple');
    await page.goto(`${server.baseUrl}/contrats/avances/intrants`);
    await page.getByRole('heading', { name: 'Avances sur intrants' }).waitFor();
    await check('contract-advances-inputs');
  });
});
