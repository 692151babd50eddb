import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
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

const COOPERATIVE = {
  label: 'Coopérative des Producteurs d’Ananas de Sékou',
  lastname: 'Akpovi',
  firstname: 'Rosine',
  phone: '0166730259',
  email: 'coop.sekou@ananas.bj',
  ifu: '3202398765432',
};

/**
 * Organisations paysannes: the cluster manager registers a cooperative
 * (IFU of 13 digits, required e-mail, bank, momo pre-filled from the phone), finds it in
 * 'Coopérative de Producteurs' and opens it. Every screen axe-checked.
 */
describe.skipIf(missing !== null)('cooperatives in Chromium', { timeout: 240_000 }, () => {
  explainFailures();
  pollLikePages();
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

  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  const choose = async (select: Locator, option: string) => {
    await expect.poll(() => select.isEnabled()).toBe(true);
    await select.click();
    await select
      .page()
      .getByRole('listbox')
      .last()
      .getByRole('option', { name: option, exact: true })
      .click();
  };

  it('the cluster manager registers a cooperative, finds it and opens it', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.baseUrl}/auth/login?redirect=%2Forganisations-paysannes`);
    await page.getByLabel('Email').fill('gestionnaire@demo.filiere.bj');
    await page.getByLabel(/^Mot de passe/).fill(server.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/organisations-paysannes');
    await page.getByRole('heading', { name: 'Coopérative de Producteurs' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    await nav.getByRole('link', { name: 'Organisations paysannes' }).waitFor();
    await check(page, 'cooperatives-list');

    await page.getByRole('link', { name: 'Ajouter une coopérative' }).click();
    await page.getByRole('heading', { name: 'Ajouter une coopérative' }).waitFor();
    const submit = page.getByRole('button', { name: 'Ajouter la coopérative' });
    expect(await submit.isEnabled()).toBe(false);

    const organization = page.getByRole('region', { name: 'Coopérative', exact: true });
    await organization.getByLabel(/^Dénomination/).fill(COOPERATIVE.label);
    const ifu = organization.getByLabel(/^IFU/);
    await ifu.fill('320239');
    await organization.getByText("L'IFU doit contenir exactement 13 chiffres").waitFor();
    await ifu.fill(COOPERATIVE.ifu);
    await organization.getByLabel(/^RCCM/).fill('RB/ALD/24 A 0420');

    const representative = page.getByRole('region', { name: 'Représentant' });
    await representative.getByLabel(/^Nom du représentant/).fill(COOPERATIVE.lastname);
    await representative.getByLabel(/^Prénoms/).fill(COOPERATIVE.firstname);
    await representative.getByLabel(/^Téléphone/).fill(COOPERATIVE.phone);
    const email = representative.getByLabel(/^E-mail/);
    await email.fill('pas-un-mail');
    await representative.getByText('Adresse mail invalide').waitFor();
    await email.fill(COOPERATIVE.email);

    const payout = page.getByRole('region', { name: 'Compte de reversement' });
    expect(await payout.getByLabel(/^Numéro mobile money/).inputValue()).toBe(COOPERATIVE.phone);
    await choose(payout.getByLabel(/^Banque/), 'Ecobank Bénin');
    await payout.getByLabel(/^Numéro de compte bancaire/).fill('BJ066010010055544433');
    await check(page, 'cooperatives-form');
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();

    await page.getByText('Coopérative ajoutée avec succès !').first().waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/organisations-paysannes/show/'));
    await page.getByRole('heading', { name: COOPERATIVE.label }).waitFor();
    await page.getByText(COOPERATIVE.ifu).waitFor();
    await check(page, 'cooperatives-detail');

    await page.goto(`${server.baseUrl}/organisations-paysannes`);
    await page.getByRole('searchbox', { name: 'Rechercher' }).first().fill('Sékou');
    await page.waitForURL((url) => url.searchParams.get('q') === 'Sékou');
    const row = page.getByRole('row').filter({ hasText: COOPERATIVE.label });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByText(COOPERATIVE.lastname).waitFor();
    await row.getByRole('link', { name: `Voir ${COOPERATIVE.label}` }).click();
    await page.getByRole('heading', { name: COOPERATIVE.label }).waitFor();
    await page.close();
  });
});
