import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { narrowDb } from '@filiere/platform';
import type { Database } from '@filiere/api';
import {
  seedCluster,
  seedOrganization,
  seedUser,
  TEST_PASSWORD,
} from '../../services/api/src/identity/test-support.js';
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
const LIST_PATH = '/op/demande/intrant';

/** 'YYYY-MM-DD', `days` after today (UTC; two days ahead is tomorrow or later in Benin). */
const dayFromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Growers' requests (spec seasons §2.4): an aggregator of this test's own
 * making, confirmed in a season of its own with an input provider assigned for NPK, finds its
 * growers' INPUT requests (filed through the API) on 'Demande d'intrants'; a request filed
 * while it looks appears without a reload; it selects two and accepts them in bulk from the
 * bottom bar (the irreversible modal, the plural text, 'Demande (s) acceptée(s) avec
 * succès'), they move to 'Demandes confirmées' with their AGW_ codes; it rejects the third
 * from its row menu with a motif (required). Every screen axe-checked.
 */
describe.skipIf(missing !== null)('season requests in Chromium', { timeout: 300_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let adminToken = '';
  let industrial = { id: '', email: '', token: '' };
  const growers: { id: string; userId: string; email: string; token: string }[] = [];
  let seasonId = 0;

  /** A JSON call to the API; throws unless the status is `expected`. */
  const callApi = async <T>(
    token: string,
    method: string,
    path: string,
    body?: unknown,
    expected = 200,
  ) => {
    const response = await fetch(`${server.baseUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'idempotency-key': randomUUID(),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text}`).toBe(expected);
    return JSON.parse(text) as T;
  };

  const fileInput = (index: number, quantity: number) =>
    callApi<{ reference: string; requestId: number }>(
      growers[index]!.token,
      'POST',
      '/season-requests',
      { type: 'INPUT', seasonId, growerId: growers[index]!.id, fertilizerId: 1, quantity },
      201,
    );

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
    const db = narrowDb<Database>()(server.db.db);
    const sign = (id: string, role: Parameters<typeof seedUser>[1]) =>
      server.app.jwt.sign({ sub: id, role });
    const admin = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'superadmin@demo.filiere.bj')
      .executeTakeFirstOrThrow();
    adminToken = sign(admin.id, 'ROLE_SUPER_ADMIN');

    // The aggregator and three growers of a cluster of this test.
    const clusterId = await seedCluster(server.db.db, 'Cluster Kétou');
    const organizationId = await seedOrganization(server.db.db, 'Ananas de Kétou SARL');
    const seeded = await seedUser(server.db.db, 'ROLE_INDUSTRIAL', {
      clusterId,
      organizationId,
      email: 'agregateur.requetes@ketou.bj',
    });
    industrial = { ...seeded, token: sign(seeded.id, 'ROLE_INDUSTRIAL') };
    for (let i = 0; i < 3; i++) {
      const user = await seedUser(server.db.db, 'ROLE_GROWER', { clusterId });
      const row = await db
        .insertInto('growers')
        .values({
          user_id: user.id,
          cluster_id: clusterId,
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'A098-001',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      growers.push({
        id: row.id,
        userId: user.id,
        email: user.email,
        token: sign(user.id, 'ROLE_GROWER'),
      });
    }

    // A season with NPK (fertilizer 1) at 350 F/kg; the aggregator attached for 100 t, accepts.
    const season = await callApi<{ seasonId: number }>(
      adminToken,
      'POST',
      '/clusters',
      {
        label: 'Saison Kétou 2027',
        from: dayFromNow(2),
        to: dayFromNow(300),
        unitProductAmount: 125,
        productionIndex: 50,
        quotity: 10,
        fertilizers: [{ fertilizerId: 1, amount: 350, index: 400 }],
      },
      201,
    );
    seasonId = season.seasonId;
    await callApi(adminToken, 'POST', `/clusters/activate-cluster/${seasonId}`);
    const link = await callApi<{ linkId: number }>(
      adminToken,
      'POST',
      `/clusters/${seasonId}/industrial`,
      { industrialId: industrial.id, quantity: 100_000 },
      201,
    );
    await callApi(industrial.token, 'POST', `/seasons/${seasonId}/accept`, {});

    // Funds for the provider's hold, and the demo supplier assigned 400 kg of NPK.
    const { wallet_id: walletId } = await db
      .selectFrom('users')
      .select('wallet_id')
      .where('id', '=', industrial.id)
      .executeTakeFirstOrThrow();
    const supply = await callApi<{ reference: string }>(
      industrial.token,
      'POST',
      '/supply',
      { amount: 1_000_000, walletId, accountType: 'BANK', bank: 'BAB' },
      201,
    );
    await callApi(adminToken, 'POST', '/supply/validate-bank-supply', {
      reference: supply.reference,
    });
    const provider = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'fournisseur@demo.filiere.bj')
      .executeTakeFirstOrThrow();
    await callApi(
      industrial.token,
      'POST',
      '/user-cluster-input-provider',
      { userClusterId: link.linkId, inputProviderId: provider.id, fertilizerId: 1, quantity: 400 },
      201,
    );
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Signed in through the API (the login form is identity.test.ts's subject). */
  const signIn = (email: string, password: string, to: string): Promise<Page> =>
    signedInPage(browser, server.baseUrl, email, password, to);

  /** axe: no serious or critical violation; and a screenshot for review. */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  it('the industrial accepts two INPUT requests in bulk and rejects one with a motif', async () => {
    const first = await fileInput(0, 40);
    const second = await fileInput(1, 20);
    const page = await signIn(industrial.email, TEST_PASSWORD, LIST_PATH);
    await page.getByRole('heading', { name: "Demande d'intrants" }).waitFor();
    await page.getByRole('tab', { name: 'Demandes en cours', selected: true }).waitFor();
    const row = (reference: string) => page.getByRole('row', { name: new RegExp(reference) });
    await row(first.reference).waitFor();
    await row(second.reference).waitFor();
    // Quantité (en Kg) and the grower's name linking to its profile.
    await row(first.reference).getByRole('cell', { name: '40', exact: true }).waitFor();

    // Filed while the list is open: it appears without a reload (seasons.request push).
    const third = await fileInput(2, 10);
    await row(third.reference).waitFor();
    await check(page, 'season-requests-list');

    // Select two: the bottom bar counts them.
    await page
      .getByRole('checkbox', { name: `Sélectionner la demande ${first.reference}` })
      .check();
    await page
      .getByRole('checkbox', { name: `Sélectionner la demande ${second.reference}` })
      .check();
    const bar = page.getByTestId('requests-bar');
    await bar.getByText('2 demandes sélectionnées').waitFor();
    await check(page, 'season-requests-selection');
    await bar.getByRole('button', { name: 'Accepter les requêtes' }).click();
    const accept = page.getByRole('dialog', { name: 'Accepter les demandes' });
    await accept.getByText('Êtes-vous sûr de vouloir accepter ces 2 demandes ?').waitFor();
    await accept.getByText('Cette action est irréversible').waitFor();
    await check(page, 'season-requests-accept');
    await accept.getByRole('button', { name: 'Oui, accepter' }).click();
    await page.getByText('Demande (s) acceptée(s) avec succès').waitFor();
    await accept.waitFor({ state: 'detached' });
    await expect.poll(() => row(first.reference).count()).toBe(0);
    await expect.poll(() => row(second.reference).count()).toBe(0);
    expect(await bar.count()).toBe(0);

    // 'Demandes confirmées': both, each with its AGW_ code, no action column.
    await page.getByRole('tab', { name: 'Demandes confirmées' }).click();
    await row(first.reference)
      .getByText(/^AGW_\d{6}$/)
      .waitFor();
    await row(second.reference)
      .getByText(/^AGW_\d{6}$/)
      .waitFor();
    expect(await page.getByRole('columnheader', { name: 'Action' }).count()).toBe(0);
    await check(page, 'season-requests-confirmed');

    // The third, from its row menu (axe-clean while open), by keyboard: the motif is required,
    // then 'Valider'.
    await page.getByRole('tab', { name: 'Demandes en cours' }).click();
    await page.getByRole('button', { name: `Actions de la demande ${third.reference}` }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Rejeter' }).waitFor();
    await check(page, 'season-requests-row-menu');
    // Opened, the menu has its first entry focused (the menu button pattern); the arrows move.
    await expect
      .poll(() =>
        menu
          .getByRole('menuitem', { name: 'Accepter' })
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() =>
        menu
          .getByRole('menuitem', { name: 'Rejeter' })
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    await page.keyboard.press('Enter');
    const reject = page.getByRole('dialog', { name: 'Rejeter la demande' });
    await reject.getByRole('button', { name: 'Valider' }).click();
    await reject.getByText('Ce champ est obligatoire').waitFor();
    await reject.getByLabel(/^Motif/).fill('Stock épuisé chez le fournisseur');
    await check(page, 'season-requests-reject');
    await reject.getByRole('button', { name: 'Valider' }).click();
    await page.getByText('Demande (s) rejetée(s) avec succès').waitFor();
    await expect.poll(() => row(third.reference).count()).toBe(0);
    await page.getByRole('tab', { name: 'Demandes rejetées' }).click();
    await row(third.reference).getByText('Stock épuisé chez le fournisseur').waitFor();
    await row(third.reference).getByText('Rejetée').waitFor();
    await check(page, 'season-requests-rejected');

    // The server holds it: two codes handed out, the third rejected with its reason.
    const confirmed = await callApi<{ values: { code: string | null }[] }>(
      industrial.token,
      'GET',
      `/user-cluster-grower/get-industrial-requests/INPUT/${industrial.id}?status=CONFIRMED`,
    );
    expect(confirmed.values.map((v) => v.code)).toEqual([
      expect.stringMatching(/^AGW_\d{6}$/),
      expect.stringMatching(/^AGW_\d{6}$/),
    ]);
    await page.close();
  });

  it('a grower files a pineapple advance from its menu entry; the SFD has its social list', async () => {
    const page = await signIn(growers[0]!.email, TEST_PASSWORD, '/demande/nouvelle');
    await page.getByRole('heading', { name: 'Faire une demande' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    await nav.getByRole('link', { name: 'Faire une demande' }).waitFor();
    const form = page.locator('form');
    await form.getByText('Avances sur ananas', { exact: true }).click();
    expect(await form.getByRole('radio', { name: 'Avances sur ananas' }).isChecked()).toBe(true);
    await page.getByRole('combobox', { name: /^Saison/ }).click();
    await page.getByRole('option', { name: 'Saison Kétou 2027' }).click();
    // Required fields first.
    await page.getByRole('button', { name: 'Envoyer la demande' }).click();
    await page.getByText('Ce champ est obligatoire').first().waitFor();
    await page.getByRole('textbox', { name: /^Montant demandé/ }).fill('45000');
    await page.getByRole('textbox', { name: /^Quantité d'ananas à livrer/ }).fill('600');
    await check(page, 'season-requests-file');
    await page.getByRole('button', { name: 'Envoyer la demande' }).click();
    await page.getByText(/^Demande DEM-\d{6} envoyée avec succès$/).waitFor();
    // Its requests sent: the advance, pending.
    await page.getByText('Avances sur ananas', { exact: true }).last().click();
    const sent = page.getByRole('row', { name: /45 000/ });
    await sent.getByText('En attente').waitFor();
    await page.close();

    const sfd = await signIn('sfd@demo.filiere.bj', server.password, '/demande/financement-social');
    await sfd.getByRole('heading', { name: 'Demandes de financements social' }).waitFor();
    await sfd
      .getByRole('navigation', { name: 'Menu principal' })
      .getByRole('link', { name: 'Demandes de financements social' })
      .waitFor();
    // The demo's pending financing, which the SFD may act on.
    await sfd
      .getByRole('button', { name: /^Actions de la demande DEM-/ })
      .first()
      .waitFor();
    await check(sfd, 'season-requests-social');
    await sfd.close();
  });
});
