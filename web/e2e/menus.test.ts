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

/**
 * The side navigation shows each role its work: the input provider
 * reaches 'Demandes d'intrants' (its deliveries by code) from the menu, the aggregator its
 * growers' request lists, the super admin and an admin the 'Contrats' group, whose lists let
 * them pick an aggregator; the SFD's 'Paramètres' shows once it has a cluster. Every screen reached is axe-checked.
 */
describe.skipIf(missing !== null)('menus by role in Chromium', { timeout: 240_000 }, () => {
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

  const open = (email: string) =>
    signedInPage(browser, server.baseUrl, email, server.password, '/dashboard');
  const navGroup = (page: Page, name: string) =>
    page
      .getByRole('navigation', { name: 'Menu principal' })
      .last()
      .getByRole('group', { name, exact: true });

  it("the input provider opens 'Demandes d'intrants' from its menu", async () => {
    const page = await open('fournisseur@demo.filiere.bj');
    const activities = navGroup(page, 'Activités');
    await activities.waitFor();
    await activities.getByRole('link', { name: "Demandes d'intrants" }).click();
    await page.waitForURL((url) => url.pathname === '/demande');
    await page.getByRole('heading', { name: "Demandes d'intrants" }).waitFor();
    await page.getByRole('button', { name: 'Livrer un producteur' }).waitFor();
    // Only its own work: no season administration, no growers' request lists.
    expect(await activities.getByRole('link').allInnerTexts()).toEqual(["Demandes d'intrants"]);
    expect(await navGroup(page, 'Demandes des producteurs').count()).toBe(0);
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("the aggregator opens its growers' request lists from its menu", async () => {
    const page = await open('agregateur@demo.filiere.bj');
    const requests = navGroup(page, 'Demandes des producteurs');
    await requests.waitFor();
    expect(await requests.getByRole('link').allInnerTexts()).toEqual([
      "Demandes d'intrants",
      "Demandes d'avance ananas",
    ]);
    await requests.getByRole('link', { name: "Demandes d'intrants" }).click();
    await page.waitForURL((url) => url.pathname === '/op/demande/intrant');
    await page.getByRole('heading', { name: "Demande d'intrants" }).waitFor();
    await requests.getByRole('link', { name: "Demandes d'avance ananas" }).click();
    await page.waitForURL((url) => url.pathname === '/demande/avance-ananas');
    await page.getByRole('heading', { name: "Demandes d'avances sur ananas" }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("the SFD sees 'Paramètres' once it has a cluster; without one, no dead end", async () => {
    const db = server.db.db;
    const sfd = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'sfd@demo.filiere.bj')
      .executeTakeFirstOrThrow();
    const { cluster_id: clusterId } = await db
      .selectFrom('users')
      .select('cluster_id')
      .where('email', '=', 'agregateur@demo.filiere.bj')
      .executeTakeFirstOrThrow();
    await db.updateTable('users').set({ cluster_id: null }).where('id', '=', sfd.id).execute();
    const page = await open('sfd@demo.filiere.bj');
    const management = navGroup(page, 'Gestion');
    await management.getByRole('link', { name: 'Utilisateurs' }).waitFor();
    expect(await management.getByRole('link', { name: 'Paramètres' }).count()).toBe(0);
    // By its address, the page says why and leads back.
    await page.goto(`${server.baseUrl}/config/settings`);
    await page.getByTestId('cluster-missing').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Retour au tableau de bord' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');

    // Attached to a cluster, the entry appears and opens the cluster's settings.
    await db.updateTable('users').set({ cluster_id: clusterId }).where('id', '=', sfd.id).execute();
    await page.reload();
    await management.getByRole('link', { name: 'Paramètres' }).click();
    await page.waitForURL((url) => url.pathname === '/config/settings');
    await page.getByLabel(/^Nom du cluster/).waitFor();
    expect(await page.getByTestId('cluster-missing').count()).toBe(0);
    await page.context().close();
  });

  for (const email of ['superadmin@demo.filiere.bj', 'admin@demo.filiere.bj']) {
    it(`${email} reads the aggregators' contracts from 'Contrats'`, async () => {
      const page = await open(email);
      const contracts = navGroup(page, 'Contrats');
      await contracts.waitFor();
      // The contract template is the super admin's alone (the admin reads its versions only).
      expect(await contracts.getByRole('link').allInnerTexts()).toEqual([
        'Contrats de livraison',
        'Avances ananas',
        'Contrats parents (lots)',
        'Avances sur intrants',
        'Contrats de transport',
        "Fournitures d'intrants",
        ...(email.startsWith('superadmin') ? ['Modèle de contrat'] : []),
      ]);
      await contracts.getByRole('link', { name: 'Contrats de livraison' }).click();
      await page.waitForURL((url) => url.pathname === '/contrats/livraison');
      // Every aggregator's contracts, the demo's among them.
      await page.getByRole('heading', { name: 'Contrats de livraison' }).waitFor();
      await page.getByRole('cell', { name: /^LIV-/ }).first().waitFor();

      // The parent contracts: an aggregator to pick, then its list.
      await contracts.getByRole('link', { name: 'Contrats parents (lots)' }).click();
      await page.waitForURL((url) => url.pathname === '/contrats/lots');
      await page.getByRole('heading', { name: 'Contrats parents', exact: true }).waitFor();
      await page.getByText('Choisissez un agrégateur pour afficher sa liste.').waitFor();
      await page.getByLabel('Filtrer par agrégateur').first().fill('Awa');
      await page.getByRole('option', { name: /^Awa Dossou/ }).click();
      await page
        .getByRole('cell', { name: /^LIVP-/ })
        .first()
        .waitFor();

      // The pineapple advances, the same way.
      await contracts.getByRole('link', { name: 'Avances ananas' }).click();
      await page.waitForURL((url) => url.pathname === '/contrats/avance-ananas');
      // The screen's code loads after the address changes: the lots' filter of the same name
      // stays on screen until this page's heading replaces it.
      await page.getByRole('heading', { name: 'Avances sur ananas' }).waitFor();
      await page.getByLabel('Filtrer par agrégateur').first().fill('Awa');
      await page.getByRole('option', { name: /^Awa Dossou/ }).click();
      await page.getByRole('cell', { name: /^AVA-/ }).first().waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `menus-contracts-${email.split('@')[0]}`);
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  }
});
