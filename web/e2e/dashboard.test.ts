import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import {
  browserMissingReason,
  explainFailures,
  launchBrowser,
  newPage,
  pollLikePages,
} from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { signedInPage } from './support/session.js';

const missing = browserMissingReason();

const AGGREGATOR = 'agregateur@demo.filiere.bj';
const SUPER_ADMIN = 'superadmin@demo.filiere.bj';

/** Today in Porto-Novo as the range line shows it (dd/mm/yyyy). */
function beninTodayShown(): string {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Africa/Porto-Novo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(new Date())
    .split('-');
  return `${d}/${m}/${y}`;
}

/** A card's figure as a number ('1 234' → 1234). */
const figure = async (page: Page, name: string): Promise<number> =>
  Number(((await page.getByTestId(`card-${name}`).textContent()) ?? '').replace(/\D/g, ''));

/**
 * Tableau de bord and Reporting on one server: the demo aggregator
 * signs in and lands on its dashboard with the demo's figures; switching presets changes the
 * URL and refetches; a delivered contract run through the API turns into one more executed
 * contract on the open page, without a reload (the reporting.dashboard push); the SFD, the
 * cooperative and the input provider get their own dashboards; the super admin
 * reads the reporting board for one cluster and downloads it as an .xlsx; an unknown address
 * shows 'Page introuvable' inside the layout with its way back. Every screen axe-checked.
 */
describe.skipIf(missing !== null)(
  'dashboard and reporting in Chromium',
  { timeout: 240_000 },
  () => {
    explainFailures();
    pollLikePages();
    let server: E2eServer;
    let browser: Browser;
    let aggregator: Page;
    let token = '';

    beforeAll(async () => {
      mkdirSync(screenshotDir, { recursive: true });
      server = await startE2eServer();
      browser = await launchBrowser();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    /** Through the login form: the first test's subject is where the aggregator lands. */
    const signIn = async (email: string, target?: string): Promise<Page> => {
      const page = await newPage(browser);
      const query = target ? `?redirect=${encodeURIComponent(target)}` : '';
      await page.goto(`${server.baseUrl}/auth/login${query}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel(/^Mot de passe/).fill(server.password);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL((url) => url.pathname === (target ?? '/dashboard'));
      return page;
    };
    /** Signed in through the API, for the tests whose subject is the screen. */
    const openAs = (email: string, target = '/dashboard'): Promise<Page> =>
      signedInPage(browser, server.baseUrl, email, server.password, target);

    /** axe: no serious or critical violation; and a screenshot for review. */
    const check = async (page: Page, name: string) => {
      await page.waitForLoadState('networkidle');
      await screenshot(page, name);
      expect(await seriousViolations(page), name).toEqual([]);
    };

    it("lands the aggregator on its dashboard with the demo's figures, by preset", async () => {
      aggregator = await signIn(AGGREGATOR);
      token = await aggregator.evaluate(() => {
        for (const store of [localStorage, sessionStorage]) {
          for (let i = 0; i < store.length; i++) {
            const value = store.getItem(store.key(i)!) ?? '';
            if (/^ey[\w-]+\.[\w-]+\.[\w-]+$/.test(value)) return value;
          }
        }
        return '';
      });
      expect(token).not.toBe('');
      await aggregator.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor();
      // Letters, not \w: 'décembre', 'février', 'août' have letters \w does not match.
      expect(await aggregator.getByTestId('dashboard-today').textContent()).toMatch(
        /^Aujourd'hui : \p{L}+ \d{1,2} \p{L}+ \d{4}$/u,
      );
      // The demo's contracts: pending and confirmed ones expected, settled ones executed.
      await aggregator.getByTestId('card-waitingDelivery').waitFor();
      expect(await figure(aggregator, 'waitingDelivery')).toBeGreaterThan(0);
      const sinceTheBeginning = await figure(aggregator, 'totalContracts');
      expect(sinceTheBeginning).toBeGreaterThan(0);
      expect(await aggregator.getByTestId('card-amountToPaid').textContent()).toMatch(/F\s?CFA/);
      expect(
        await aggregator
          .getByRole('button', { name: 'Depuis le début' })
          .getAttribute('aria-pressed'),
      ).toBe('true');
      await aggregator.getByRole('img', { name: /^Achats d'ananas en tonnes/ }).waitFor();
      await aggregator.getByRole('img', { name: /^Dettes des producteurs en F CFA/ }).waitFor();
      await check(aggregator, 'dashboard-aggregator');

      // Aujourd'hui: the URL says so and the figures are asked again for today's Benin day.
      const today = aggregator.waitForResponse(
        (r) => r.url().includes('/api/contracts/stats?') && r.url().includes('from='),
      );
      await aggregator.getByRole('button', { name: "Aujourd'hui" }).click();
      await aggregator.waitForURL((url) => url.searchParams.get('preset') === 'today');
      expect((await today).status()).toBe(200);
      await expect
        .poll(() => aggregator.getByTestId('dashboard-range').textContent())
        .toBe(`Chiffres du ${beninTodayShown()} au ${beninTodayShown()}`);
      // The demo is a season in progress: today's contracts are a few of the season's.
      await expect.poll(() => figure(aggregator, 'totalContracts')).toBeLessThan(sinceTheBeginning);
      expect(await figure(aggregator, 'totalContracts')).toBeGreaterThan(0);
      // Année passée, then back to Depuis le début.
      await aggregator.getByRole('button', { name: 'Année passée' }).click();
      await aggregator.waitForURL((url) => url.searchParams.get('preset') === 'lastYear');
      await aggregator.getByRole('button', { name: 'Depuis le début' }).click();
      await aggregator.waitForURL((url) => url.searchParams.get('preset') === 'all');
      await expect
        .poll(() => aggregator.getByTestId('dashboard-range').textContent())
        .toBe(`Chiffres depuis le début jusqu'au ${beninTodayShown()}`);
      // The tabs: Transport, then back to Livraison (in the URL too).
      await aggregator.getByRole('tab', { name: 'Transport' }).click();
      await aggregator.waitForURL((url) => url.searchParams.get('tab') === 'carriage');
      await aggregator.getByRole('tab', { name: 'Avance sur intrants' }).click();
      await aggregator.getByTestId('card-remainingAmount').waitFor();
      await check(aggregator, 'dashboard-aggregator-input-advance');
      await aggregator.getByRole('tab', { name: 'Livraison' }).click();
      await aggregator.getByTestId('card-executedContracts').waitFor();
    });

    it('counts a contract run elsewhere on the open dashboard, without a reload', async () => {
      await aggregator.evaluate(
        () => ((window as unknown as { noReload: boolean }).noReload = true),
      );
      const before = await figure(aggregator, 'executedContracts');
      const [delivered] = await server.db.db
        .selectFrom('delivery_contracts as c')
        .innerJoin('users as u', 'u.id', 'c.aggregator_user_id')
        .select('c.id')
        .where('u.email', '=', AGGREGATOR)
        .where('c.status', '=', 'DELIVERED')
        .execute();
      expect(delivered, 'a demo contract delivered, ready to run').toBeDefined();
      // The contract runs' loop, as the API runs it outside tests (NODE_ENV=test leaves it off).
      const runner = (
        server.app as unknown as { contracts: { runner: { runDue(): Promise<number> } } }
      ).contracts.runner;
      let driving = true;
      const loop = (async () => {
        while (driving) {
          await runner.runDue().catch(() => 0);
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      })();
      onTestFinished(async () => {
        driving = false;
        await loop;
      });
      const run = await fetch(`${server.baseUrl}/api/contracts/run-contracts`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': `e2e-dashboard-run-${Date.now()}`,
        },
        body: JSON.stringify({ ids: [delivered!.id] }),
      });
      expect(run.status).toBe(202);
      await expect.poll(() => figure(aggregator, 'executedContracts')).toBe(before + 1);
      expect(
        await aggregator.evaluate(() => (window as unknown as { noReload?: boolean }).noReload),
      ).toBe(true);
      await check(aggregator, 'dashboard-aggregator-live');
    });

    it('gives the SFD, the cooperative and the input provider a dashboard of their own', async () => {
      // The SFD: its social financings (the demo's one) and what is still owed to it.
      const sfd = await openAs('sfd@demo.filiere.bj');
      await sfd.getByRole('heading', { name: 'Financements sociaux' }).waitFor();
      await sfd.getByTestId('card-outstanding').waitFor();
      expect(await figure(sfd, 'principal')).toBeGreaterThan(0);
      expect(await sfd.getByTestId('card-waitingDelivery').count()).toBe(0);
      await check(sfd, 'dashboard-sfd');
      await sfd.close();
      // The cooperative: its growers' contracts, payments and debts.
      const cooperative = await openAs('cooperative@demo.filiere.bj');
      await cooperative.getByRole('heading', { name: 'Mes contrats de livraison' }).waitFor();
      await cooperative.getByTestId('card-totalContracts').waitFor();
      await cooperative.getByTestId('card-total').waitFor();
      await check(cooperative, 'dashboard-cooperative');
      await cooperative.close();
      // No figure of its own: said so, with the way to its wallet.
      const provider = await openAs('fournisseur@demo.filiere.bj');
      await provider.getByText('Aucun chiffre à afficher pour votre rôle').waitFor();
      await provider.getByRole('link', { name: 'Ouvrir Mon Wallet' }).waitFor();
      await check(provider, 'dashboard-provider');
      await provider.close();
    });

    it("shows the super admin's reporting for one cluster and downloads it", async () => {
      const admin = await openAs(SUPER_ADMIN, '/reporting');
      await admin.getByRole('heading', { name: 'Reporting', level: 1 }).waitFor();
      await admin.getByTestId('card-growers').waitFor();
      expect(await figure(admin, 'growers')).toBeGreaterThan(0);
      for (const card of ['countDebit', 'totalDebit', 'countSupplies', 'totalSupplies']) {
        await admin.getByTestId(`card-${card}`).waitFor();
      }
      expect(await figure(admin, 'countTransfer')).toBeGreaterThan(0);
      for (const title of ['Nom', 'Prénoms', 'Téléphone', 'Superficie emblavée (ha)']) {
        await admin.getByRole('columnheader', { name: title, exact: true }).waitFor();
      }
      await check(admin, 'reporting-all');

      // The aggregator's cluster: the URL holds it, the cards and the table follow.
      const cluster = await server.db.db
        .selectFrom('users as u')
        .innerJoin('clusters as c', 'c.id', 'u.cluster_id')
        .select(['c.id', 'c.label'])
        .where('u.email', '=', AGGREGATOR)
        .executeTakeFirstOrThrow();
      await admin.getByLabel('Cluster', { exact: true }).first().click();
      await admin.getByRole('option', { name: cluster.label, exact: true }).click();
      await admin.waitForURL((url) => url.searchParams.get('clusterId') === cluster.id);
      const rows = admin.getByRole('row').filter({ has: admin.getByRole('cell') });
      await expect.poll(() => rows.count()).toBeGreaterThan(0);
      expect(await figure(admin, 'growers')).toBeGreaterThan(0);
      await check(admin, 'reporting-cluster');

      const [download] = await Promise.all([
        admin.waitForEvent('download'),
        admin.getByRole('button', { name: 'Télécharger' }).click(),
      ]);
      const dir = mkdtempSync(path.join(tmpdir(), 'reporting-xlsx-'));
      const file = path.join(dir, 'reporting.xlsx');
      await download.saveAs(file);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(file);
      rmSync(dir, { recursive: true, force: true });
      const lines: string[] = [];
      // The transaction cards' sheet, then the growers' (French headers) with the table's rows.
      expect(book.worksheets.map((w) => w.name)).toEqual(['Transactions', 'Producteurs']);
      book.getWorksheet('Producteurs')!.eachRow((r) =>
        lines.push(
          (r.values as unknown[])
            .slice(1)
            .map((v) => String(v ?? ''))
            .join('|'),
        ),
      );
      expect(lines[0]).toContain('Nom');
      const firstRow = await rows.first().getByRole('cell').first().textContent();
      expect(lines.some((l) => l.includes(firstRow!))).toBe(true);

      // An address no screen serves: 'Page introuvable' beside the menu, and the way back.
      await admin.goto(`${server.baseUrl}/nulle-part/ici`);
      await admin.getByRole('heading', { name: 'Page introuvable' }).waitFor();
      await admin.getByRole('navigation', { name: 'Menu principal' }).last().waitFor();
      await check(admin, 'not-found');
      await admin.getByRole('button', { name: 'Retour', exact: true }).click();
      await admin.waitForURL((url) => url.pathname === '/reporting');
      await admin.getByRole('heading', { name: 'Reporting', level: 1 }).waitFor();
    });
  },
);
