import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
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

/** What zod says in English when nobody translated it: must never reach the page. */
const ZOD_ENGLISH = /Invalid input|expected string|received number/;

/** The digits of a text ('2 400 000 F CFA' → '2400000'): amounts are grouped by thin spaces. */
const digits = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\D/g, '');

/** 'DD/MM/YYYY' (the date fields' format), `days` after today in Porto-Novo. */
const dayFromNow = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  const [y, m, day] = d.toISOString().slice(0, 10).split('-');
  return `${day}/${m}/${y}`;
};

/** The demo aggregator (services/api/src/identity/demo/identity.ts). */
const AGGREGATOR = { email: 'agregateur@demo.filiere.bj', firstname: 'Awa', lastname: 'Dossou' };

/**
 * This test's season: 120 F/kg, 50 t/ha, quotity 10 %, NPK 15-15-15 (350 F/kg × 400 kg/ha)
 * and Urée 46 % (300 F/kg × 250 kg/ha). For 20 000 kg (0.4 ha): total 2 400 000 F, fertilizer
 * ceil(0.4 × (350·400 + 300·250)) = 86 000 F, minimum supply 86 000 + 10 % × 2 400 000 =
 * 326 000 F (docs/seasons.md formulas).
 */
const SEASON = { label: 'Saison test navigateur 2027', quantity: 20_000 };
const EXPECTED = { production: '2400000', fertilizer: '86000', minSupply: '326000' };

/**
 * Seasons, the super admin's side (spec seasons §2.1, §2.7, §2.8, §5, §8):
 * the wizard creates a season with two fertilizer lines (a bad quotity shows the spec's French
 * message and keeps 'Suivant' disabled), step 2 attaches the demo aggregator through the
 * three-step modal (the server's three amounts, 'Modifier' back to the quantity), the detail
 * shows the blocks and 'Activer' activates it; the 'Saisons' list searches and filters by
 * status. Every screen axe-checked.
 */
describe.skipIf(missing !== null)('seasons admin in Chromium', { timeout: 300_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let admin: Page;
  let seasonId = '';

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Signed in through the API (the login form is identity.test.ts's subject). */
  const signIn = (email: string, path: string): Promise<Page> =>
    signedInPage(browser, server.baseUrl, email, server.password, path);

  /** axe: no serious or critical violation; and a screenshot for review. */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
    expect(await page.locator('body').innerText(), name).not.toMatch(ZOD_ENGLISH);
  };

  /** Opens a Mantine select and clicks an option by name. */
  const choose = async (select: Locator, option: string) => {
    const page = select.page();
    await expect.poll(() => select.isEnabled()).toBe(true);
    await select.click();
    await page
      .getByRole('listbox')
      .last()
      .getByRole('option', { name: option, exact: true })
      .click();
  };

  /** A toast with `text` shows. */
  const toast = (page: Page, text: string) =>
    page.getByText(text, { exact: true }).first().waitFor();

  /** 'Ajouter un intrant' and its modal, saved. */
  const addLine = async (
    page: Page,
    type: string,
    fertilizer: string,
    amount: string,
    dose: string,
  ) => {
    await page.getByRole('button', { name: 'Ajouter un intrant' }).click();
    const modal = page.getByRole('dialog', { name: 'Ajouter un intrant' });
    await choose(modal.getByLabel(/^Type d'intrant/), type);
    await choose(modal.getByLabel(/^Intrant/), fertilizer);
    await modal.getByLabel(/^Montant unitaire/).fill(amount);
    await modal.getByLabel(/^Dose par hectare/).fill(dose);
    await modal.getByRole('button', { name: 'Enregistrer' }).click();
    await modal.waitFor({ state: 'detached' });
  };

  it('the super admin creates a season through the wizard, attaches the aggregator, sees the amounts and activates it', async () => {
    admin = await signIn('superadmin@demo.filiere.bj', '/saisons');
    await admin.getByRole('heading', { name: 'Saisons' }).waitFor();
    const nav = admin.getByRole('navigation', { name: 'Menu principal' });
    await nav.getByRole('link', { name: 'Saisons' }).waitFor();
    // The demo's season is listed, accepted by the demo aggregator.
    await admin
      .getByRole('cell', { name: /Saison 2026/ })
      .first()
      .waitFor();
    await check(admin, 'seasons-admin-list');

    await admin.getByRole('link', { name: 'Ajouter une saison' }).click();
    await admin.waitForURL((url) => url.pathname === '/saisons/create');
    await admin.getByRole('heading', { name: 'Ajouter une saison' }).waitFor();
    // Nav bar hidden on the wizard.
    expect(await admin.getByRole('navigation', { name: 'Menu principal' }).count()).toBe(0);
    const next = admin.getByRole('button', { name: 'Suivant', exact: true });
    expect(await next.isDisabled()).toBe(true);

    await admin.getByLabel(/^Nom de la saison/).fill(SEASON.label);
    await admin.getByLabel(/^Montant estimé d'un kg d'ananas/).fill('120');
    await admin.getByLabel(/^Date de debut/).fill(dayFromNow(5));
    await admin.keyboard.press('Escape');
    await admin.getByLabel(/^Date de fin/).fill(dayFromNow(340));
    await admin.keyboard.press('Escape');
    await admin.getByLabel(/^Rendement de production d'ananas par hectare/).fill('50');
    // A quotity above 100: the spec's French message, and 'Suivant' stays disabled.
    await admin.getByLabel(/^Quotité %/).fill('150');
    await admin
      .getByText('Le champ Quotité % doit avoir une valeur inférieur ou égale à 100')
      .waitFor();
    expect(await next.isDisabled()).toBe(true);
    await admin.getByLabel(/^Quotité %/).fill('10');
    await expect.poll(() => next.isEnabled()).toBe(true);

    await addLine(admin, 'Engrais', 'NPK 15-15-15', '350', '400');
    await addLine(admin, 'Engrais', 'Urée 46 %', '300', '250');
    const lines = admin.getByRole('table', { name: 'Liste des intrants' });
    await lines.getByRole('cell', { name: 'NPK 15-15-15', exact: true }).waitFor();
    await lines.getByRole('cell', { name: 'Urée 46 %', exact: true }).waitFor();
    await check(admin, 'seasons-admin-wizard-step1');

    await next.click();
    await toast(admin, 'Campagne ajoutée avec succès');
    await admin.waitForURL((url) => url.searchParams.get('step') === '2');
    seasonId = new URL(admin.url()).searchParams.get('id') ?? '';
    expect(seasonId).toMatch(/^\d+$/);

    // Step 2: attach the demo aggregator in three steps.
    await admin.getByRole('button', { name: 'Ajouter un agrégateur' }).click();
    const modal = admin.getByRole('dialog', { name: 'Ajouter un agrégateur' });
    await modal.getByLabel('Agrégateur', { exact: true }).fill(AGGREGATOR.lastname);
    await admin
      .getByRole('option', { name: new RegExp(`${AGGREGATOR.firstname} ${AGGREGATOR.lastname}`) })
      .first()
      .click();
    const quantity = modal.getByLabel(/^Quantité désirée \(Kg\)/);
    await quantity.waitFor();
    await modal.getByRole('button', { name: 'Ajouter' }).click();
    await modal.getByText('Ce champ est obligatoire').waitFor();
    await quantity.fill('1000');
    await modal.getByRole('button', { name: 'Ajouter' }).click();
    await modal.getByTestId('amount-production').waitFor();
    expect(await digits(modal.getByTestId('amount-production'))).toBe('120000');
    // 'Modifier' goes back to the quantity; the cards follow the new one.
    await modal.getByRole('button', { name: 'Modifier la quantité' }).click();
    await quantity.fill(String(SEASON.quantity));
    await modal.getByRole('button', { name: 'Ajouter' }).click();
    await expect
      .poll(() => digits(modal.getByTestId('amount-production')))
      .toBe(EXPECTED.production);
    expect(await digits(modal.getByTestId('amount-fertilizer'))).toBe(EXPECTED.fertilizer);
    expect(await digits(modal.getByTestId('amount-min-supply'))).toBe(EXPECTED.minSupply);
    await check(admin, 'seasons-admin-attach-amounts');
    await modal.getByRole('button', { name: 'Valider' }).click();
    await toast(
      admin,
      `${AGGREGATOR.firstname} ${AGGREGATOR.lastname} a été ajouté à la saison avec succès`,
    );
    await modal.waitFor({ state: 'detached' });

    const industrials = admin.getByRole('table', { name: 'Agrégateurs de la saison' });
    const row = industrials.getByRole('row', { name: new RegExp(AGGREGATOR.lastname) });
    await row.waitFor();
    expect((await row.innerText()).replace(/\D/g, '')).toContain(EXPECTED.minSupply);
    await check(admin, 'seasons-admin-wizard-step2');

    // 'Enregistrer' → the season's detail: blocks, sums, 'Activer'.
    await admin.getByRole('button', { name: 'Enregistrer' }).click();
    await admin.waitForURL((url) => url.pathname === `/saisons/show/${seasonId}`);
    await admin.getByRole('heading', { name: SEASON.label }).waitFor();
    for (const block of [
      'Informations générales',
      'Quantité et coût',
      'Liste des intrants',
      'Agrégateurs de la saison',
    ]) {
      await admin.getByRole('heading', { name: block }).waitFor();
    }
    // The read side follows the attach a moment later (its push refreshes the page).
    await expect
      .poll(() => digits(admin.getByTestId('season-production')))
      .toBe(EXPECTED.production);
    await expect
      .poll(() => digits(admin.getByTestId('season-min-supply')))
      .toBe(EXPECTED.minSupply);
    const attached = admin
      .getByRole('table', { name: 'Agrégateurs de la saison' })
      .getByRole('row', { name: new RegExp(AGGREGATOR.lastname) });
    await attached.getByText('En attente').waitFor();
    await check(admin, 'seasons-admin-detail');

    const activate = admin.getByRole('button', { name: 'Activer' });
    expect(await activate.isEnabled()).toBe(true);
    await activate.click();
    await toast(admin, `La saison ${SEASON.label} a été activée avec succès`);
    await expect.poll(() => activate.isDisabled()).toBe(true);
  });

  it('the list searches by name and filters by status', async () => {
    await admin.goto(`${server.baseUrl}/saisons`);
    await admin.getByRole('heading', { name: 'Saisons' }).waitFor();
    const table = admin.getByRole('table', { name: 'Saisons' });
    const statusFilter = () => admin.getByLabel('Filtrer par statut', { exact: true }).first();
    await admin.getByRole('searchbox', { name: 'Rechercher' }).first().fill('navigateur');
    await admin.waitForURL((url) => url.searchParams.get('q') === 'navigateur');
    const row = table.getByRole('row', { name: new RegExp(SEASON.label) });
    await row.waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(2); // header + our season
    // The aggregator has not accepted: 'Nouveau'; its figures are the sums of its links.
    await row.getByText('Nouveau').waitFor();
    expect((await row.innerText()).replace(/\D/g, '')).toContain(
      `${SEASON.quantity}${EXPECTED.production}`,
    );

    await choose(statusFilter(), 'Rejetée');
    await admin.waitForURL((url) => url.searchParams.get('status') === 'REJECTED');
    await table.getByText('Aucun élément trouvé').waitFor();

    // Cleared search, 'Accepté': the demo season (confirmed by the demo aggregator), not ours.
    await admin.getByRole('searchbox', { name: 'Rechercher' }).first().fill('');
    await admin.waitForURL((url) => !url.searchParams.get('q'));
    await choose(statusFilter(), 'Accepté');
    await admin.waitForURL((url) => url.searchParams.get('status') === 'ACCEPTED');
    await table
      .getByRole('cell', { name: /Saison 2026/ })
      .first()
      .waitFor();
    expect(await table.getByRole('row', { name: new RegExp(SEASON.label) }).count()).toBe(0);
    await check(admin, 'seasons-admin-list-filtered');

    // The view icon opens the season's overview modal.
    await choose(statusFilter(), 'Nouveau');
    await admin.waitForURL((url) => url.searchParams.get('status') === 'CREATED');
    await admin.getByRole('button', { name: `Aperçu de ${SEASON.label}` }).click();
    const overview = admin.getByRole('dialog', { name: `Saison ${SEASON.label}` });
    await overview.getByText('Quotité %').waitFor();
    await check(admin, 'seasons-admin-overview');
  });

  it('the detail follows the aggregator’s acceptance live (a push, no reload)', async () => {
    await admin.goto(`${server.baseUrl}/saisons/show/${seasonId}`);
    const row = admin
      .getByRole('table', { name: 'Agrégateurs de la saison' })
      .getByRole('row', { name: new RegExp(AGGREGATOR.lastname) });
    await row.getByText('En attente').waitFor();
    await admin.waitForLoadState('networkidle');
    let navigations = 0;
    admin.on('framenavigated', () => navigations++);

    // The aggregator accepts through the API, from its own session.
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.89.0.1' },
      body: JSON.stringify({ email: AGGREGATOR.email, password: server.password }),
    });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { access_token: string }).access_token;
    const accept = await fetch(`${server.baseUrl}/api/seasons/${seasonId}/accept`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(accept.status, await accept.clone().text()).toBe(200);

    // The admin's page shows it without a reload: the link confirmed (no removal any more),
    // the season 'Accepté'.
    await row.getByText('Confirmée').waitFor();
    await admin.getByText('Accepté', { exact: true }).first().waitFor();
    expect(await row.getByRole('button', { name: /^Retirer/ }).count()).toBe(0);
    expect(navigations).toBe(0);
  });

  it('the small form renames the season and the archive confirmation removes it from the list', async () => {
    await admin.goto(`${server.baseUrl}/saisons?q=navigateur`);
    const table = admin.getByRole('table', { name: 'Saisons' });
    await table.getByRole('row', { name: new RegExp(SEASON.label) }).waitFor();

    await admin.getByRole('button', { name: `Modifier ${SEASON.label}` }).click();
    const form = admin.getByRole('dialog', { name: 'Modifier la saison' });
    const renamed = `${SEASON.label} (navigateur bis)`;
    await form.getByLabel(/^Nom de la saison/).fill(renamed);
    await check(admin, 'seasons-admin-small-form');
    await form.getByRole('button', { name: 'Enregistrer' }).click();
    await toast(admin, 'Campagne modifiée avec succès');
    await table.getByText(renamed, { exact: true }).waitFor();

    await admin.getByRole('button', { name: `Archiver ${renamed}` }).click();
    const confirm = admin.getByRole('dialog', { name: 'Archiver la saison' });
    await confirm.getByText('Êtes-vous sur de vouloir archiver cette saison ?').waitFor();
    await check(admin, 'seasons-admin-archive');
    await confirm.getByRole('button', { name: 'Oui, archiver' }).click();
    await toast(admin, 'Campagne archivée avec succès');
    await table.getByText('Aucun élément trouvé').waitFor();
  });
});
