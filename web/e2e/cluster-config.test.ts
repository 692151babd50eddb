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

/**
 * 'Configurer mon cluster' as the demo cluster manager: reached from the
 * menu (Gestion), the demo's configuration read back (aggregator of the Allada cluster), the
 * aggregator required, a new name and another aggregator saved and read back after a reload.
 */
describe.skipIf(missing !== null)('cluster configuration in Chromium', { timeout: 180_000 }, () => {
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

  it('the cluster manager configures its cluster: name, aggregator, read back', async () => {
    const page = await signIn('gestionnaire@demo.filiere.bj');
    const nav = page.getByRole('navigation', { name: 'Menu principal' }).last();
    await nav.getByRole('link', { name: 'Configurer mon cluster' }).click();
    await page.waitForURL((url) => url.pathname === '/config/cluster');
    await page.getByRole('heading', { name: 'Configurer mon cluster' }).waitFor();

    const name = page.getByLabel(/^Nom du cluster/);
    await expect.poll(() => name.inputValue()).toBe('Cluster Allada');
    const aggregator = page.getByLabel(/^Agrégateur/).first();
    await expect.poll(() => aggregator.inputValue()).toBe('Awa Dossou — Ananas Export SA');
    await page.getByText('Coopératives', { exact: true }).waitFor();
    await page.getByText('Producteurs sans coopérative', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'cluster-config');
    expect(await seriousViolations(page)).toEqual([]);

    // The aggregator is required: cleared, 'Enregistrer' is disabled.
    const save = page.getByRole('button', { name: 'Enregistrer' });
    await name.fill('');
    await page.getByText('Ce champ est obligatoire').first().waitFor();
    await expect.poll(() => save.isEnabled()).toBe(false);

    await name.fill('Cluster Allada – Sékou');
    await aggregator.click();
    await page
      .getByRole('option', { name: 'Codjo Hounkpatin — Zou Ananas Industrie', exact: true })
      .click();
    await expect.poll(() => save.isEnabled()).toBe(true);
    await save.click();
    await page.getByText('Mise à jour effectuée avec succès').first().waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Configurer mon cluster' }).waitFor();
    await expect
      .poll(() => page.getByLabel(/^Nom du cluster/).inputValue())
      .toBe('Cluster Allada – Sékou');
    await expect
      .poll(() =>
        page
          .getByLabel(/^Agrégateur/)
          .first()
          .inputValue(),
      )
      .toBe('Codjo Hounkpatin — Zou Ananas Industrie');
  });

  it('the super admin has no such entry and is sent home from the address', async () => {
    const page = await signIn('superadmin@demo.filiere.bj');
    const nav = page.getByRole('navigation', { name: 'Menu principal' }).last();
    expect(await nav.getByRole('link', { name: 'Configurer mon cluster' }).count()).toBe(0);
    await page.goto(`${server.baseUrl}/config/cluster`);
    await page.waitForURL((url) => url.pathname !== '/config/cluster');
  });
});
