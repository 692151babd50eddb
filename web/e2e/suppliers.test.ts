import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** What zod says in English when nobody translated it: must never reach the page. */
const ZOD_ENGLISH = /Invalid input|expected string|received number/;

/**
 * 'Fournisseurs d'intrant' as the demo cluster manager: the list from
 * the menu (Prestataires), a supplier created with a delivery point and two fertilizers of
 * two types, found by a search, opened, then deactivated from the list's trash icon after
 * its confirmation — gone from the list.
 */
describe.skipIf(missing !== null)('input suppliers in Chromium', { timeout: 180_000 }, () => {
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

  const signIn = async (email: string): Promise<Page> => {
    const page = await newPage(browser);
    await page.goto(`${server.baseUrl}/auth/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Mot de passe/).fill(server.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
    return page;
  };
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };
  const choose = async (page: Page, label: RegExp, option: string) => {
    await page.getByLabel(label).first().click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  it('creates a supplier with a delivery point and two fertilizers, finds it, deactivates it', async () => {
    const page = await signIn('gestionnaire@demo.filiere.bj');
    const nav = page.getByRole('navigation', { name: 'Menu principal' }).last();
    await nav.getByRole('link', { name: "Fournisseurs d'intrants" }).click();
    await page.waitForURL((url) => url.pathname === '/fournisseurs-intrant');
    await page.getByRole('heading', { name: "Fournisseurs d'intrant" }).waitFor();
    // The demo's suppliers of the Allada cluster.
    await page.getByRole('cell', { name: 'Agossou', exact: true }).waitFor();
    await check(page, 'suppliers-list');

    await page.getByRole('link', { name: 'Ajouter un fournisseur' }).click();
    await page.getByRole('heading', { name: "Ajouter un fournisseur d'intrant" }).waitFor();
    await page.getByLabel(/^Raison sociale/).fill('Intrants de Sékou SARL');
    await page.getByLabel(/^RCCM/).fill('RB/ALL/24 B 0042');
    await page.getByLabel(/^IFU/).fill('3202400012345');
    await page.getByLabel(/^Nom \*?$/).fill('Dossa');
    await page.getByLabel(/^Prénoms/).fill('Euloge');
    await page.getByLabel(/^Téléphone/).fill('96778899');
    await page.getByLabel(/^Email/).fill('euloge.dossa@intrants-sekou.bj');
    await page.getByLabel(/^NIP/).fill('5501200901');
    await page.getByLabel(/^Nom du point/).fill('Magasin de Sékou');
    await page.getByLabel(/^Adresse/).fill('Sékou, route d’Allada');
    await page.getByLabel(/^Latitude/).fill('6.6123456');
    await page.getByLabel(/^Longitude/).fill('2.1987654');
    await choose(page, /^Type d'intrant 1/, 'Engrais');
    await choose(page, /^Intrant 1/, 'NPK 15-15-15');
    await page.getByRole('button', { name: 'Ajouter un intrant' }).click();
    await choose(page, /^Type d'intrant 2/, 'Rejets');
    await choose(page, /^Intrant 2/, 'Rejets de Cayenne lisse');
    await choose(page, /^Banque/, 'Ecobank Bénin');
    await page.getByLabel(/^Numéro de compte bancaire/).fill('BJ0660100100000099887766');
    // The mobile money number follows the phone.
    await expect.poll(() => page.getByLabel(/^Numéro mobile money/).inputValue()).toBe('96778899');
    expect(await page.locator('form').textContent()).not.toMatch(ZOD_ENGLISH);
    await check(page, 'supplier-form');
    const save = page.getByRole('button', { name: 'Enregistrer' });
    await expect.poll(() => save.isEnabled()).toBe(true);
    await save.click();
    await page.getByText("Fournisseur d'intrant a été ajouté avec succès !").first().waitFor();

    // The detail page: its delivery point and both fertilizers.
    await page.waitForURL((url) => url.pathname.startsWith('/fournisseurs-intrant/show/'));
    await page.getByRole('heading', { name: 'Intrants de Sékou SARL' }).waitFor();
    await page.getByRole('cell', { name: 'Magasin de Sékou' }).waitFor();
    await page.getByText('NPK 15-15-15').waitFor();
    await page.getByText('Rejets de Cayenne lisse').waitFor();
    await check(page, 'supplier-detail');

    // Found in the list by a search, then deactivated from the trash icon.
    await page.goto(`${server.baseUrl}/fournisseurs-intrant`);
    await page.getByRole('searchbox', { name: 'Rechercher' }).fill('Euloge');
    await page.getByRole('cell', { name: 'Dossa', exact: true }).waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByRole('button', { name: 'Supprimer Euloge Dossa' }).click();
    const dialog = page.getByRole('dialog', { name: "Supprimer un fournisseur d'intrant" });
    await dialog.getByText('Euloge Dossa').waitFor();
    await dialog.getByRole('button', { name: 'Oui, supprimer' }).click();
    await page
      .getByText('Le fournisseur d’intrant Euloge Dossa est désactivé. Il pourra être réactivé')
      .first()
      .waitFor();
    await page.getByText('Aucun élément trouvé').waitFor();
  });
});
