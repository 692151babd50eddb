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
import { apiToken, signedInPage } from './support/session.js';

const missing = browserMissingReason();

const AUDITOR = 'auditeur@demo.filiere.bj';
const AGGREGATOR = 'agregateur@demo.filiere.bj';
const SUPER_ADMIN = 'superadmin@demo.filiere.bj';
const GROWER = 'Basile Ahouandjinou';

/** The digits of a text ('1 234 F CFA' → 1234), whatever spaces Intl used. */
const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, '') || 'NaN');
/** Intl's narrow no-break spaces read as plain spaces. */
const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ');

/**
 * What the users tripped on in forms and menus: actions a role may not take are not
 * offered; money forms say what is wrong before 'Oui, envoyer', in French, with no field name;
 * the language is switched from the user menu and remembered for each user.
 */
describe.skipIf(missing !== null)('forms, actions and language in Chromium', () => {
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

  const signIn = (email: string, target: string, viewport?: { width: number; height: number }) =>
    signedInPage(browser, server.baseUrl, email, server.password, target, { viewport });

  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  it('offers the auditor no Transférer or Retirer on Mon Wallet (the server refuses both)', async () => {
    const auditor = await signIn(AUDITOR, '/wallet', { width: 390, height: 844 });
    await auditor.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    await auditor.getByRole('link', { name: 'Relevé du portefeuille' }).waitFor();
    await auditor.getByTestId('wallet-available').waitFor();
    expect(await auditor.getByRole('button', { name: 'Transférer' }).count()).toBe(0);
    expect(await auditor.getByRole('button', { name: 'Retirer' }).count()).toBe(0);
    await check(auditor, 'forms-auditor-wallet-390');
    await auditor.context().close();

    const aggregator = await signIn(AGGREGATOR, '/wallet');
    await aggregator.getByRole('button', { name: 'Transférer' }).waitFor();
    await aggregator.getByRole('button', { name: 'Retirer' }).waitFor();
    await aggregator.context().close();
  }, 90_000);

  it('refuses a transfer above the available balance or the ceiling in the form, before the confirm step', async () => {
    const page = await signIn(AGGREGATOR, '/wallet');
    await page.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    await expect
      .poll(async () => digits(await page.getByTestId('wallet-available').textContent()))
      .not.toBeNaN();
    const available = digits(await page.getByTestId('wallet-available').textContent());

    await page.getByRole('button', { name: 'Transférer' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Destinataire').fill('Basile');
    await page.getByRole('option', { name: new RegExp(GROWER) }).click();
    await dialog.getByRole('button', { name: 'Suivant', exact: true }).click();
    await dialog.getByLabel('Motif').fill('Avance de campagne');
    const amount = dialog.getByLabel('Montant');
    const next = dialog.getByRole('button', { name: 'Suivant', exact: true });

    await amount.fill(String(available + 1_000));
    const short = dialog.getByText(/^Le solde disponible de votre wallet est insuffisant/);
    await short.waitFor();
    expect(plain(await short.textContent())).toBe(
      'Le solde disponible de votre wallet est insuffisant. Il manque 1 000 F CFA',
    );
    expect(await next.isDisabled()).toBe(true);
    await check(page, 'forms-transfer-above-balance');

    await amount.fill('100000001');
    const ceiling = dialog.getByText(/^Le montant ne peut pas dépasser/);
    await ceiling.waitFor();
    expect(plain(await ceiling.textContent())).toBe(
      'Le montant ne peut pas dépasser 100 000 000 F CFA',
    );
    expect(await next.isDisabled()).toBe(true);

    await amount.fill('1000');
    await expect.poll(() => next.isDisabled()).toBe(false);
    await next.click();
    await dialog.getByTestId('transfer-confirm').waitFor();
    await page.context().close();
  }, 90_000);

  it('switches the language from the user menu and remembers it for each user of the browser', async () => {
    const page = await signIn(AGGREGATOR, '/dashboard');
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor();
    const choose = async (lng: 'en' | 'fr') => {
      await page.getByTestId('profile-block').click();
      await page.getByTestId(`lang-${lng}`).click();
    };
    await page.getByTestId('profile-block').click();
    await page.getByTestId('lang-en').waitFor();
    await check(page, 'forms-user-menu-language');
    await page.keyboard.press('Escape');
    await choose('en');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    // Another user signs in on the same browser and picks French for itself.
    const become = async (email: string) => {
      const token = await apiToken(server.baseUrl, email, server.password);
      await page.evaluate((t) => {
        localStorage.setItem('access_token', t);
        sessionStorage.clear();
      }, token);
      await page.goto(`${server.baseUrl}/dashboard`);
    };
    await become(SUPER_ADMIN);
    await page.getByTestId('profile-block').waitFor();
    await choose('fr');
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor();

    // Each finds its own choice again.
    await become(AGGREGATOR);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await become(SUPER_ADMIN);
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor();
    await page.context().close();
  }, 90_000);
});
