import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@filiere/api';
import { createLogger, parseConfig } from '@filiere/platform';
import { DEMO_SECOND_AGGREGATOR } from '@filiere/api/identity';
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
const SFD = 'sfd@demo.filiere.bj';
const SECOND = 'Codjo Hounkpatin';
const FIRST = 'Awa Dossou';
const BANK_NAME = 'Banque Atlantique Bénin';

/** The digits of a text ('1 234 F CFA' → 1234), whatever spaces Intl used. */
const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, '') || 'NaN');

describe.skipIf(missing !== null)('wallet flows in Chromium', () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let aggregator: Page | undefined;

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
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
  const aggregatorPage = async (): Promise<Page> =>
    (aggregator ??= await signIn(AGGREGATOR, '/wallet'));

  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  /**
   * The background payouts, as the worker runs them: a second API instance on the same
   * database runs the due jobs (the e2e server runs none by itself, NODE_ENV=test). Its
   * events reach the open pages through the server's projectors and pushes.
   */
  const runPayouts = async () => {
    const app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PAYMENT_PROVIDER: 'sandbox' }),
      db: server.db.db,
      logger: createLogger('silent', false),
    });
    try {
      while ((await app.wallet.runner.runDue()) > 0);
    } finally {
      await app.close();
    }
  };

  const available = (page: Page) => page.getByTestId('wallet-available').textContent().then(digits);
  /** Text of the first rows of the wallet's transaction table (newest first). */
  const rowTexts = (page: Page) => movementsTable(page).locator('tbody tr').allTextContents();

  /** One 'Retirer' through every dialog step; returns once the success step was closed. */
  const withdraw = async (
    page: Page,
    amount: number,
    means: 'Mobile money' | 'Virement bancaire',
  ) => {
    await page.getByRole('button', { name: 'Retirer', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: "Retirer de l'argent" }).waitFor();
    expect(await dialog.getByText('Moyen de retrait').count()).toBe(1);
    await dialog.locator('label', { hasText: means }).click();
    expect(await dialog.getByRole('radio', { name: means }).isChecked()).toBe(true);
    const submit = dialog.getByRole('button', { name: 'Retirer', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Montant').fill('0');
    await dialog.getByText('Entré non valide').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Montant').fill(String(amount));
    // The form validates asynchronously (zod resolver): the button enables once it has.
    await expect.poll(() => submit.isDisabled()).toBe(false);
    return { dialog, submit };
  };

  it('withdraws to mobile money through every step: balance drops, the row waits, then is paid', async () => {
    const page = await aggregatorPage();
    await page.goto(`${server.baseUrl}/wallet`);
    await page.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    await expect.poll(() => available(page)).not.toBeNaN();
    const before = await available(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));

    const { dialog, submit } = await withdraw(page, 30_000, 'Mobile money');
    await expect.poll(() => dialog.getByLabel('Montant').inputValue()).toMatch(/^30\s000$/);
    await check(page, 'wallet-withdraw');
    expect(await dialog.getByRole('button', { name: 'Annuler' }).count()).toBe(1);
    await submit.click();
    // Under way until the payout job runs (it said 'Retrait effectué' before paying).
    await dialog.getByRole('heading', { name: 'Retrait en cours' }).waitFor();
    expect(
      (await dialog.getByTestId('withdraw-result').textContent())?.replace(/\s/g, ' '),
    ).toMatch(/^Votre retrait de 30 000 FCFA vers \S+ \(Mobile money\) est en cours\./);
    await check(page, 'wallet-withdraw-success');
    await dialog.getByRole('button', { name: 'Terminer' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    await expect.poll(() => available(page)).toBe(before - 30_000);
    await expect
      .poll(async () => (await rowTexts(page))[0] ?? '')
      .toMatch(/Retrait.*30\s000.*En attente/);

    await runPayouts();
    // The payout's success reaches the open page by push: no reload (the marker survives).
    await expect
      .poll(async () => (await rowTexts(page))[0] ?? '', { timeout: 20_000 })
      .toMatch(/Retrait.*30\s000.*Succès/);
    expect(await available(page)).toBe(before - 30_000);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  }, 120_000);

  it('a bank withdrawal the provider refuses is marked failed and refunded', async () => {
    const page = await aggregatorPage();
    await page.goto(`${server.baseUrl}/wallet`);
    await expect.poll(() => available(page)).not.toBeNaN();
    const before = await available(page);

    // The demo aggregator's bank account is one the sandbox refuses payouts to.
    const { dialog, submit } = await withdraw(page, 20_000, 'Virement bancaire');
    await submit.click();
    await dialog.getByTestId('withdraw-result').waitFor();
    await dialog.getByRole('button', { name: 'Terminer' }).click();
    await expect.poll(() => available(page)).toBe(before - 20_000);

    await runPayouts();
    await expect.poll(() => available(page), { timeout: 20_000 }).toBe(before);
    await expect
      .poll(async () => (await rowTexts(page)).slice(0, 2).join(' | '), { timeout: 20_000 })
      .toMatch(/Remboursement.*20\s000.*Succès.*\|.*Retrait.*20\s000.*Échouée/);
    await check(page, 'wallet-withdraw-refund');
  }, 120_000);

  it('funds another aggregator: the financing shows in both aggregators’ lists; SFD sees no button', async () => {
    const page = await aggregatorPage();
    await page.goto(`${server.baseUrl}/financements`);
    await page.getByRole('heading', { name: 'Financements' }).waitFor();
    await page.getByRole('button', { name: 'Financer un agrégateur' }).click();
    const dialog = page.getByRole('dialog');
    const submit = dialog.getByRole('button', { name: 'Financer', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Agrégateur').fill('Hounk');
    await page.getByRole('option', { name: new RegExp(SECOND) }).click();
    await dialog.getByLabel('Montant').fill('45000');
    await expect.poll(() => submit.isDisabled()).toBe(false);
    await submit.click();
    await dialog.getByRole('button', { name: 'Oui, financer' }).click();
    await page.getByText('Financement effectué avec succès').waitFor();
    const row = new RegExp(`${SECOND}.*45\\s000.*Succès`);
    await expect
      .poll(async () => (await rowTexts(page)).some((r) => row.test(r)), { timeout: 15_000 })
      .toBe(true);
    await check(page, 'wallet-financings');

    const second = await signIn(DEMO_SECOND_AGGREGATOR, '/financements');
    await second.getByRole('heading', { name: 'Financements' }).waitFor();
    const received = new RegExp(`${FIRST}.*45\\s000.*Succès`);
    await expect
      .poll(async () => (await rowTexts(second)).some((r) => received.test(r)), {
        timeout: 15_000,
      })
      .toBe(true);
    await second.context().close();

    const sfd = await signIn(SFD, '/profile');
    await sfd.goto(`${server.baseUrl}/financements`);
    await sfd.waitForURL((url) => url.pathname !== '/financements');
    // Sent home: once its menu shows, neither the page's button nor the menu entry is there.
    await sfd.getByRole('navigation', { name: 'Menu principal' }).last().waitFor();
    expect(await sfd.getByRole('button', { name: 'Financer un agrégateur' }).count()).toBe(0);
    expect(await sfd.getByRole('link', { name: 'Financements', exact: true }).count()).toBe(0);
    await sfd.context().close();
  }, 120_000);

  it('a new bank supply appears on the super admin’s open list without reload, with the bank from the API', async () => {
    const admin = await signIn(SUPER_ADMIN, '/admin/approvisionnements');
    await admin.getByRole('heading', { name: 'Validation des approvisionnements' }).waitFor();
    await admin.getByRole('cell', { name: BANK_NAME }).first().waitFor();
    await admin.evaluate(() => ((window as unknown as { marker: number }).marker = 9));

    const page = await aggregatorPage();
    await page.goto(`${server.baseUrl}/approvisionnements?tab=bank&showModal=1`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Virement bancaire' }).check({ force: true });
    // The accepted bank is preselected, as the API names it.
    await expect.poll(() => dialog.getByLabel('Banque').inputValue()).toBe(BANK_NAME);
    await dialog.getByLabel('Montant').fill('700000');
    await dialog.getByRole('button', { name: 'Valider' }).click();
    const reference = (await page.getByTestId('bank-reference').textContent())!;
    expect(await page.getByTestId('bank-name').textContent()).toBe(BANK_NAME);
    await page.getByRole('button', { name: "J'ai compris" }).click();

    await admin.getByRole('button', { name: `Valider ${reference}` }).waitFor({ timeout: 20_000 });
    expect(await admin.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(9);
    await check(admin, 'wallet-admin-live');
    await admin.context().close();
  }, 120_000);

  it('shows the beneficiary’s NIP in Paiements effectués and in the payment detail', async () => {
    const page = await aggregatorPage();
    await page.goto(`${server.baseUrl}/paiements-effectues?q=rejets`);
    await page.getByRole('heading', { name: 'Paiements effectués' }).waitFor();
    await expect
      .poll(() => page.getByTestId('beneficiary-nip').first().textContent())
      .toBe('NIP 1098765432');
    await page
      .getByRole('link', { name: /^Voir détails de / })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Détail paiement de Basile Ahouandjinou' }).waitFor();
    await page.getByText('1098765432', { exact: true }).waitFor();
  }, 60_000);

  it('shows every wallet screen in English: no French left, no missing key', async () => {
    // The detectors themselves: French UI text and raw keys are caught, data is not.
    expect(frenchLeftovers('Montant FCFA: 1 000')).toContain(
      'wallet.columns.amountFcfa: Montant FCFA',
    );
    expect(frenchLeftovers(`Bank ${BANK_NAME}, Amount FCFA`)).toEqual([]);
    expect(missingKeys('see supplies.title')).toContain('supplies.title');
    const page = await aggregatorPage();
    await page.goto(`${server.baseUrl}/wallet`);
    await page.getByTestId('profile-block').click();
    await page.getByTestId('lang-en').click();
    await page.getByRole('heading', { name: 'My Wallet' }).waitFor();
    const english = async (name: string) => {
      await page.waitForLoadState('networkidle');
      const texts = await visibleTexts(page);
      expect(frenchLeftovers(texts), name).toEqual([]);
      expect(missingKeys(texts), name).toEqual([]);
      await screenshot(page, `${name}-en`);
    };
    await page.getByTestId('yearly-chart').waitFor();
    await english('wallet');
    for (const button of ['Transfer', 'Withdraw']) {
      await page.getByRole('button', { name: button, exact: true }).click();
      await page.getByRole('dialog').waitFor();
      await english(`wallet-${button.toLowerCase()}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    }
    await page.goto(`${server.baseUrl}/paiements-effectues`);
    await page.getByRole('heading', { name: 'Payments made' }).waitFor();
    await page.getByRole('cell').first().waitFor();
    await english('wallet-payments');
    await page
      .getByRole('link', { name: /^See details of / })
      .first()
      .click();
    await page.getByRole('heading', { name: /^Payment detail of \S/ }).waitFor();
    await english('wallet-payment-detail');
    await page.goto(`${server.baseUrl}/approvisionnements?showModal=1`);
    await page.getByRole('dialog').waitFor();
    await english('wallet-supply-modal');
    await page.goto(`${server.baseUrl}/approvisionnements?tab=bank`);
    await page.getByRole('cell', { name: BANK_NAME }).first().waitFor();
    await english('wallet-supplies');
    await page.goto(`${server.baseUrl}/financements`);
    await page.getByRole('cell').first().waitFor();
    await english('wallet-financings');
    await page.getByRole('button', { name: 'Fund an aggregator' }).click();
    await page.getByRole('dialog').waitFor();
    await english('wallet-financing-modal');

    const admin = await signIn(SUPER_ADMIN, '/admin/approvisionnements');
    await admin.getByTestId('profile-block').click();
    await admin.getByTestId('lang-en').click();
    await admin.getByRole('heading', { name: 'Top-up validation' }).waitFor();
    await admin.getByRole('cell', { name: BANK_NAME }).first().waitFor();
    await admin.waitForLoadState('networkidle');
    const texts = await visibleTexts(admin);
    expect(frenchLeftovers(texts), 'admin supplies').toEqual([]);
    expect(missingKeys(texts), 'admin supplies').toEqual([]);
    await admin
      .getByRole('button', { name: /^Validate / })
      .first()
      .click();
    await admin.getByRole('dialog').waitFor();
    const modal = await visibleTexts(admin);
    expect(frenchLeftovers(modal), 'validate modal').toEqual([]);
    expect(missingKeys(modal), 'validate modal').toEqual([]);
    await screenshot(admin, 'wallet-admin-validate-en');
    await admin.context().close();
  }, 180_000);
});

/** What a reader sees or hears: the page's text, and its labels and placeholders. */
function visibleTexts(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attributes = Array.from(
      document.querySelectorAll('[aria-label],[placeholder],[title]'),
    ).flatMap((el) => ['aria-label', 'placeholder', 'title'].map((a) => el.getAttribute(a) ?? ''));
    return [document.body.innerText, document.title, ...attributes].join('\n');
  });
}

const locales = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../src/shared/i18n/locales',
);
type Tree = { [key: string]: Tree | string | string[] };
const load = (lang: string): Record<string, Tree> =>
  Object.fromEntries(
    readdirSync(path.join(locales, lang)).map((file) => [
      file.replace(/\.json$/, ''),
      JSON.parse(readFileSync(path.join(locales, lang, file), 'utf8')) as Tree,
    ]),
  );
const flat = (tree: unknown, prefix = ''): [string, string][] =>
  tree && typeof tree === 'object'
    ? Object.entries(tree).flatMap(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k))
    : [[prefix, String(tree)]];
const fr = new Map(Object.entries(load('fr')).flatMap(([ns, tree]) => flat(tree, ns)));
const en = new Map(Object.entries(load('en')).flatMap(([ns, tree]) => flat(tree, ns)));

/** Data of the demo that is French whatever the language (names, reasons, the bank). */
const DATA = [
  BANK_NAME,
  'Avance sur récolte',
  'Achat de rejets d’ananas',
  'Transport des intrants',
  // The reason the ledger records for a financing (data, stored in French); since the seasons'
  // screens exist, 'Financement' is also a French UI text (seasonInvitations.detail.funding).
  'Financement',
];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The French UI texts a page in English must not show: every French string (or literal part
 * of one around its `{{placeholders}}`) whose English differs, at least 3 characters long, not
 * an English text itself, and not held by the English text of the same key ('FCFA' after an
 * amount is not French); each with its whole-word pattern. Built once for the file's pages.
 */
const FRENCH_LITERALS: { key: string; literal: string; word: RegExp }[] = (() => {
  const english = new Set(en.values());
  const literals: { key: string; literal: string; word: RegExp }[] = [];
  for (const [key, french] of fr) {
    if (en.get(key) === french) continue;
    for (const part of french.split(/\{\{[^}]+\}\}/)) {
      const literal = part.trim();
      if (literal.length < 3 || english.has(literal) || en.get(key)?.includes(literal)) continue;
      const word = new RegExp(`(?<![\\p{L}\\p{N}])${escape(literal)}(?![\\p{L}\\p{N}])`, 'u');
      literals.push({ key, literal, word });
    }
  }
  return literals;
})();

/** French UI texts found in `text` (FRENCH_LITERALS), the demo's French data left out. */
function frenchLeftovers(text: string): string[] {
  let rest = text;
  for (const data of DATA) rest = rest.split(data).join(' ');
  const found = new Set<string>();
  for (const { key, literal, word } of FRENCH_LITERALS) {
    if (word.test(rest)) found.add(`${key}: ${literal}`);
  }
  return [...found];
}

/** i18n keys shown as text (what i18next prints for a missing key), e.g. `supplies.title`. */
function missingKeys(text: string): string[] {
  const keys = [...fr.keys()].flatMap((k) => {
    const [ns, ...rest] = k.split('.');
    return [rest.join('.'), `${ns}:${rest.join('.')}`];
  });
  return [...new Set(keys.filter((k) => k.includes('.') && text.includes(k)))];
}
