import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  seedOrganization,
  seedUser,
  TEST_PASSWORD,
} from '../../services/api/src/identity/test-support.js';
import { SeasonCommands } from '../../services/api/src/seasons/commands/season-commands.js';
import { seasonsDb } from '../../services/api/src/seasons/tables.js';
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

const LIST_PATH = '/dashboard/industriel/saisons';
const ACCEPT_FIRST = "Veuillez accepter la saison avant afin d'ajouter un fournisseur d'intrant";

/** The digits of a text ('1 224 000 F CFA' → '1224000'): amounts are grouped by thin spaces. */
const digits = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\D/g, '');

/** 'YYYY-MM-DD', `days` after today (UTC; two days ahead is tomorrow or later in Benin). */
const dayFromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Seasons, the industrial's side (spec seasons §2.2, §2.3): an aggregator of
 * this test's own making is signed in on 'Financement de la saison' when the super admin
 * attaches it to a season of this test's own making through the API; its bell rings without a
 * reload; 'Voir détails' opens the acceptance, 'Modifier' changes the quantity (the three
 * cards recomputed by the server), 'Accepter la saison' confirms it, the success modal shows
 * the balance and the shortfall, and 'Approvisionner maintenant' opens the supply modal. An
 * invitation that expired is refused with the server's French 422 message. Every screen
 * axe-checked.
 */
describe.skipIf(missing !== null)('season invitations in Chromium', { timeout: 240_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let adminToken = '';
  let aggregatorId = '';
  let aggregatorEmail = '';
  let aggregator: Page;
  let fertilizerId = 0;

  /** A JSON call to the API as the super admin; throws unless the status is `expected`. */
  const asAdmin = async <T>(method: string, path: string, body?: unknown, expected = 200) => {
    const response = await fetch(`${server.baseUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text}`).toBe(expected);
    return JSON.parse(text) as T;
  };

  /** A season of this test: 125 F/kg, 50 t/ha, quotity 10 %, one line 350 F/kg × 400 kg/ha. */
  const createSeason = async (label: string) => {
    const season = await asAdmin<{ seasonId: number }>(
      'POST',
      '/clusters',
      {
        label,
        from: dayFromNow(2),
        to: dayFromNow(300),
        unitProductAmount: 125,
        productionIndex: 50,
        quotity: 10,
        fertilizers: [{ fertilizerId, amount: 350, index: 400 }],
      },
      201,
    );
    return season.seasonId;
  };

  const attach = (seasonId: number, quantity: number) =>
    asAdmin<{ expiresAt: string }>(
      'POST',
      `/clusters/${seasonId}/industrial`,
      { industrialId: aggregatorId, quantity },
      201,
    );

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.78.0.1' },
      body: JSON.stringify({ email: 'superadmin@demo.filiere.bj', password: server.password }),
    });
    expect(login.status).toBe(200);
    adminToken = ((await login.json()) as { access_token: string }).access_token;
    const organizationId = await seedOrganization(server.db.db, 'Ananas du Couffo SARL');
    const seeded = await seedUser(server.db.db, 'ROLE_INDUSTRIAL', {
      organizationId,
      email: 'agregateur.invitations@couffo.bj',
    });
    aggregatorId = seeded.id;
    aggregatorEmail = seeded.email;
    const types = await asAdmin<{ id: number }[]>('GET', '/clusters/fertilizer-types');
    for (const type of types) {
      const fertilizers = await asAdmin<{ id: number }[]>(
        'GET',
        `/clusters/fertilizer-types/${type.id}`,
      );
      if (fertilizers[0]) {
        fertilizerId = fertilizers[0].id;
        break;
      }
    }
    expect(fertilizerId).toBeGreaterThan(0);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Signed in through the API (the login form is identity.test.ts's subject). */
  const signIn = (email: string, password: string, to = LIST_PATH): Promise<Page> =>
    signedInPage(browser, server.baseUrl, email, password, to);

  /** axe: no serious or critical violation; and a screenshot for review. */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  it('the bell rings live on an invitation; the aggregator changes the quantity, accepts, and follows the shortfall to the supply modal', async () => {
    aggregator = await signIn(aggregatorEmail, TEST_PASSWORD);
    const page = aggregator;
    await page.getByRole('heading', { name: 'Financement de la saison' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    await nav.getByRole('link', { name: 'Financement de la saison' }).waitFor();
    // No invitation yet: the bell says so, the list is empty.
    const bell = page.getByTestId('invitation-bell');
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Invitations aux saisons');
    await page.getByText('Aucun élément trouvé').waitFor();
    await bell.click();
    await page
      .getByRole('dialog', { name: 'Invitations aux saisons' })
      .getByText('Aucune invitation en attente')
      .waitFor();
    await page.keyboard.press('Escape');
    await check(page, 'season-invitations-empty');

    // The super admin attaches the aggregator for 100 t: the bell rings, no reload.
    const label = 'Saison Couffo 2027';
    const seasonId = await createSeason(label);
    await attach(seasonId, 100_000);
    await expect
      .poll(() => bell.getAttribute('aria-label'))
      .toBe('Invitations aux saisons : 1 nouvelle');
    expect(await page.getByTestId('invitation-count').textContent()).toBe('1');
    // The list has it too, 'En attente'.
    const row = page.getByRole('row', { name: new RegExp(label) });
    await row.getByText('En attente', { exact: true }).waitFor();

    // The bell (by keyboard): 'Vous avez été ajouté à la saison …', 'Voir détails'.
    await bell.focus();
    await page.keyboard.press('Enter');
    const notices = page.getByRole('dialog', { name: 'Invitations aux saisons' });
    await notices.getByText(`Vous avez été ajouté à la saison ${label}`).waitFor();
    await check(page, 'season-invitations-bell');
    await notices.getByRole('button', { name: `Voir détails de la saison ${label}` }).click();

    // The acceptance: name, dates, 100 t, the three cards, the expiry notice.
    const dialog = page.getByRole('dialog', { name: 'Accepter la saison' });
    await dialog.getByTestId('accept-season-label').getByText(label).waitFor();
    await expect.poll(() => dialog.getByTestId('accept-quantity').textContent()).toBe('100 tonnes');
    const card = (name: string) => dialog.getByTestId(`card-${name}`);
    // 100 000 kg × 125 = 12 500 000; ceil(2 ha × 350 × 400) = 280 000; + 10 % = 1 530 000.
    await expect.poll(() => digits(card('productionAmount'))).toBe('12500000');
    expect(await digits(card('fertilizerAmount'))).toBe('280000');
    expect(await digits(card('minSupplyAmount'))).toBe('1530000');
    await dialog.getByText(/^Cette saison expire le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}/).waitFor();
    await check(page, 'season-invitations-accept');

    // 'Modifier': required, numeric, in tonnes; 80 t → the server's amounts for 80 000 kg.
    await dialog.getByRole('button', { name: 'Modifier' }).click();
    const tonnes = dialog.getByLabel(/^Quantité d'ananas \(en tonnes\)/);
    await tonnes.fill('');
    await dialog.getByText('Ce champ est obligatoire').waitFor();
    await tonnes.fill('quatre-vingts');
    await dialog.getByText('Entré non valide').waitFor();
    expect(await dialog.getByRole('button', { name: 'Valider' }).isEnabled()).toBe(false);
    await tonnes.fill('80');
    await dialog.getByRole('button', { name: 'Valider' }).click();
    await expect.poll(() => dialog.getByTestId('accept-quantity').textContent()).toBe('80 tonnes');
    // 80 000 kg × 125 = 10 000 000; ceil(1.6 ha × 140 000) = 224 000; + 1 000 000 = 1 224 000.
    await expect.poll(() => digits(card('productionAmount'))).toBe('10000000');
    await expect.poll(() => digits(card('fertilizerAmount'))).toBe('224000');
    await expect.poll(() => digits(card('minSupplyAmount'))).toBe('1224000');

    await dialog.getByRole('button', { name: 'Accepter la saison' }).click();
    const success = page.getByRole('dialog', {
      name: 'Félicitations ! Vous avez accepté la saison avec succès',
    });
    await success.waitFor();
    // A wallet with nothing on it: the balance, and the whole minimum supply missing.
    expect(await digits(success.getByTestId('success-balance'))).toBe('0');
    expect(await digits(success.getByTestId('success-shortfall'))).toBe('1224000');
    await success.getByRole('button', { name: 'Plus tard' }).waitFor();
    await check(page, 'season-invitations-success');
    // Accepted: the invitation leaves the bell.
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Invitations aux saisons');

    // The server holds the new quantity and the confirmation.
    const links = await asAdmin<{ data: { userId: string; status: string; quantity: number }[] }>(
      'GET',
      `/clusters/${seasonId}/linked-industrials`,
    );
    expect(links.data.find((l) => l.userId === aggregatorId)).toMatchObject({
      status: 'CONFIRMED',
      quantity: 80_000,
    });

    await success.getByRole('button', { name: 'Approvisionner maintenant' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/approvisionnements' && url.searchParams.get('showModal') === '1',
    );
    await page.getByRole('dialog', { name: 'Nouvel approvisionnement' }).waitFor();

    // The season's detail: confirmed, no accept button, the providers' tab open to it.
    await page.goto(`${server.baseUrl}/dashboard/industriel/saison/${seasonId}`);
    await page.getByRole('heading', { name: label }).waitFor();
    await page.getByText('Confirmée').first().waitFor();
    await page.getByRole('tab', { name: 'Détails de la saison' }).waitFor();
    expect(await page.getByRole('button', { name: 'Accepter la saison' }).count()).toBe(0);
    await check(page, 'season-invitations-detail-confirmed');
    // 'Demandes': the growers' requests of this season (none yet), the tab kept in the URL.
    await page.getByRole('tab', { name: 'Demandes' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'requests');
    await page.getByText('Aucun élément trouvé').waitFor();
    await check(page, 'season-invitations-detail-requests');
    // "Fournisseur d'intrants": accepted, so the add form instead of the notice.
    await page.getByRole('tab', { name: "Fournisseur d'intrants" }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'providers');
    await page.getByRole('button', { name: 'Ajouter', exact: true }).waitFor();
    expect(await page.getByText(ACCEPT_FIRST).count()).toBe(0);
  });

  it('an expired invitation is refused with the French 422 message', async () => {
    const page = aggregator;
    const label = 'Saison Mono expirée';
    const seasonId = await createSeason(label);
    const invited = await attach(seasonId, 60_000);
    await expect
      .poll(() => page.getByTestId('invitation-bell').getAttribute('aria-label'))
      .toBe('Invitations aux saisons : 1 nouvelle');
    // The expiry job, a second past the invitation's expiry: the link becomes CANCELED.
    const later = new Date(Date.parse(invited.expiresAt) + 1000);
    const commands = new SeasonCommands({
      db: seasonsDb(server.db.db),
      pipeline: server.app.commands,
      invitationDays: 7,
      now: () => later,
    });
    expect(await commands.expire(seasonId, aggregatorId)).toEqual({ expired: true });
    await expect
      .poll(() => page.getByTestId('invitation-bell').getAttribute('aria-label'))
      .toBe('Invitations aux saisons');

    await page.goto(`${server.baseUrl}${LIST_PATH}`);
    const row = page.getByRole('row', { name: new RegExp(label) });
    await row.getByText('Expiré', { exact: true }).waitFor();
    await row.getByRole('link', { name: `Voir détails de la saison ${label}` }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard/industriel/saison/${seasonId}`);
    await page.getByRole('heading', { name: label }).waitFor();
    // Not accepted: the providers' tab shows only the notice.
    await page.getByRole('tab', { name: "Fournisseur d'intrants" }).click();
    await page.getByText(ACCEPT_FIRST).waitFor();
    expect(await page.getByRole('button', { name: 'Ajouter', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Accepter la saison' }).click();
    const dialog = page.getByRole('dialog', { name: 'Accepter la saison' });
    await dialog.getByText(/^Cette invitation a expiré le /).waitFor();
    await check(page, 'season-invitations-expired');
    await dialog.getByRole('button', { name: 'Accepter la saison' }).click();
    await page
      .getByText(
        /^Cette invitation a expiré le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2} : elle ne peut plus être acceptée$/,
      )
      .first()
      .waitFor();
    // Still not accepted.
    await dialog.getByRole('button', { name: 'Accepter la saison' }).waitFor();
  });

  it('other roles have no bell', async () => {
    const admin = await signIn('superadmin@demo.filiere.bj', server.password, '/producteurs');
    await admin.getByRole('heading', { name: 'Producteurs' }).waitFor();
    expect(await admin.getByTestId('invitation-bell').count()).toBe(0);
    await admin.close();
  });
});
