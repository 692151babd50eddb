import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { narrowDb } from '@filiere/platform';
import type { Database } from '@filiere/api';
import {
  seedOrganization,
  seedUser,
  TEST_PASSWORD,
} from '../../services/api/src/identity/test-support.js';
import type { RoleCode } from '../../services/api/src/kernel/roles.js';
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

/** 'YYYY-MM-DD', `days` after today (UTC; two days ahead is tomorrow or later in Benin). */
const dayFromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Input providers and deliveries by code (spec seasons §2.5, §2.6,
 * §2.11): an aggregator of this test's own making (in the demo supplier's cluster, its season
 * accepted and funded through the API) assigns the demo supplier to NPK from its season's
 * "Fournisseur d'intrants" tab — the quantity defaults to the maximum, above it the spec's
 * error and 'Ajouter' disabled; then a grower's INPUT request is filed and accepted through
 * the API, and the supplier, on 'Demandes d'intrants', gets the incorrect-code modal for a
 * wrong code, 'Réessayer', and delivers the right one. Every screen axe-checked.
 */
describe.skipIf(missing !== null)('season inputs in Chromium', { timeout: 300_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let adminToken = '';
  let industrial = { id: '', email: '', token: '' };
  let grower = { id: '', userId: '', token: '', lastname: '' };
  let supplier = { id: '', email: '', lastname: '', firstname: '' };
  let seasonId = 0;

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

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
    const db = narrowDb<Database>()(server.db.db);
    const sign = (id: string, role: RoleCode) => server.app.jwt.sign({ sub: id, role });
    const admin = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'superadmin@demo.filiere.bj')
      .executeTakeFirstOrThrow();
    adminToken = sign(admin.id, 'ROLE_SUPER_ADMIN');

    // The demo supplier and its cluster: the aggregator's autocomplete lists its cluster's.
    const row = await db
      .selectFrom('users')
      .innerJoin('input_suppliers', 'input_suppliers.user_id', 'users.id')
      .select([
        'users.id',
        'users.email',
        'users.firstname',
        'users.lastname',
        'input_suppliers.cluster_id',
      ])
      .where('users.email', '=', 'fournisseur@demo.filiere.bj')
      .executeTakeFirstOrThrow();
    supplier = { id: row.id, email: row.email!, firstname: row.firstname, lastname: row.lastname };
    const clusterId = row.cluster_id!;
    const organizationId = await seedOrganization(server.db.db, 'Ananas de Zè SARL');
    const seeded = await seedUser(server.db.db, 'ROLE_INDUSTRIAL', {
      clusterId,
      organizationId,
      email: 'agregateur.intrants@ze.bj',
    });
    industrial = { ...seeded, token: sign(seeded.id, 'ROLE_INDUSTRIAL') };
    const user = await seedUser(server.db.db, 'ROLE_GROWER', { clusterId });
    const growerRow = await db
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
    const growerUser = await db
      .selectFrom('users')
      .select('lastname')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    grower = {
      id: growerRow.id,
      userId: user.id,
      token: sign(user.id, 'ROLE_GROWER'),
      lastname: growerUser.lastname,
    };

    // A season with NPK (fertilizer 1: 350 F/kg, 400 kg/ha): 100 t at 50 t/ha → 800 kg.
    const season = await callApi<{ seasonId: number }>(
      adminToken,
      'POST',
      '/clusters',
      {
        label: 'Saison Zè 2027',
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
    await callApi(
      adminToken,
      'POST',
      `/clusters/${seasonId}/industrial`,
      { industrialId: industrial.id, quantity: 100_000 },
      201,
    );
    await callApi(industrial.token, 'POST', `/seasons/${seasonId}/accept`, {});
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
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Signed in through the API (the login form is identity.test.ts's subject). */
  const signIn = (email: string, password: string, to: string): Promise<Page> =>
    signedInPage(browser, server.baseUrl, email, password, to);

  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  it('the aggregator assigns a provider: the maximum by default, the max error above it, the row listed', async () => {
    const path = `/dashboard/industriel/saison/${seasonId}`;
    const page = await signIn(industrial.email, TEST_PASSWORD, path);
    await page.getByRole('tab', { name: "Fournisseur d'intrants" }).click();
    await page.getByRole('heading', { name: "Ajouter un fournisseur d'intrant" }).waitFor();
    const add = page.getByRole('button', { name: 'Ajouter', exact: true });
    expect(await add.isDisabled()).toBe(true);

    const provider = page.getByRole('combobox', { name: "Fournisseur d'intrant" });
    await provider.fill(supplier.lastname);
    await page
      .getByRole('option', { name: new RegExp(supplier.lastname) })
      .first()
      .click();
    await page.getByRole('combobox', { name: "Type d'engrais" }).click();
    await page.getByRole('option').first().click();
    await page.getByRole('combobox', { name: 'Engrais', exact: true }).click();
    await page.getByRole('option', { name: /NPK/ }).click();
    const quantity = page.getByLabel(/^Quantité \(kg\)/);
    await expect.poll(() => quantity.inputValue()).toBe('800');
    await check(page, 'season-inputs-form');

    await quantity.fill('801');
    await page.getByText("La quantité d'intrant doit être inférieur ou égale à 800").waitFor();
    expect(await add.isDisabled()).toBe(true);
    await quantity.fill('400');
    await expect.poll(() => add.isDisabled()).toBe(false);
    await add.click();
    await page.getByText(/a été ajouté à la saison avec succès/).waitFor();
    const row = page.getByRole('row', { name: new RegExp(supplier.lastname) });
    await row.getByText('Accepté').waitFor();
    await row.getByText('140 000', { exact: false }).waitFor();
    await check(page, 'season-inputs-list');
    await page.close();
  });

  it('the provider gets the incorrect-code modal for a wrong code, then delivers the right one', async () => {
    const filed = await callApi<{ requestId: number; reference: string }>(
      grower.token,
      'POST',
      '/season-requests',
      { type: 'INPUT', seasonId, growerId: grower.id, fertilizerId: 1, quantity: 40 },
      201,
    );
    await callApi(industrial.token, 'POST', '/user-cluster-grower/accept-requests', {
      ids: [filed.requestId],
    });
    const db = narrowDb<Database>()(server.db.db);
    let code = '';
    await expect
      .poll(async () => {
        const row = await db
          .selectFrom('season_requests')
          .select('code')
          .where('id', '=', filed.requestId)
          .executeTakeFirst();
        code = row?.code ?? '';
        return code;
      })
      .toMatch(/^AGW_\d{6}$/);

    const page = await signIn(supplier.email, server.password, '/demande');
    await page.getByRole('heading', { name: "Demandes d'intrants" }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(grower.lastname) });
    await row.getByText('En attente de livraison').waitFor();
    await check(page, 'season-deliveries-list');

    await page.getByRole('button', { name: 'Livrer un producteur' }).click();
    const dialog = page.getByRole('dialog');
    const codeInput = dialog.getByRole('textbox', { name: 'Code du producteur' });
    expect(await codeInput.getAttribute('placeholder')).toBe('AGW_345895');
    await codeInput.fill('AGW_000000');
    await dialog.getByRole('button', { name: 'Rechercher' }).click();
    await dialog.getByText('Le code du producteur que vous avez saisi est incorrect').waitFor();
    await check(page, 'season-deliveries-incorrect');
    await dialog.getByRole('button', { name: 'Réessayer' }).click();

    await dialog.getByRole('textbox', { name: 'Code du producteur' }).fill(code);
    await dialog.getByRole('button', { name: 'Rechercher' }).click();
    await dialog.getByText(filed.reference).waitFor();
    await dialog.getByText(new RegExp(grower.lastname)).waitFor();
    await check(page, 'season-deliveries-correct');
    await dialog.getByRole('button', { name: 'Confirmer la livraison' }).click();
    await dialog.getByText('Producteur livré avec succès !').waitFor();
    await check(page, 'season-deliveries-success');
    // The modal's own button (its corner icon is named 'Fermer' too).
    await dialog.getByRole('button', { name: 'Fermer' }).last().click();
    await row.getByText('Validée').waitFor();
    await page.close();
  });

  it('the aggregator bans the provider from its row menu: the hold released, the row gone', async () => {
    const available = async () =>
      (await callApi<{ availableBalance: number }>(industrial.token, 'GET', '/wallet/stats'))
        .availableBalance;
    const before = await available();
    const path = `/dashboard/industriel/saison/${seasonId}?tab=providers`;
    const page = await signIn(industrial.email, TEST_PASSWORD, path);
    const name = `${supplier.firstname} ${supplier.lastname}`;
    const row = page.getByRole('row', { name: new RegExp(supplier.lastname) });
    await row.getByText('Accepté').waitFor();
    await row.getByRole('button', { name: `Actions pour ${name}` }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Bannir de la saison' }).waitFor();
    await check(page, 'season-inputs-row-menu');
    await menu.getByRole('menuitem', { name: 'Bannir de la saison' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bannir un fournisseur' });
    await dialog.getByText(`Êtes-vous sur de vouloir bannir ${name} de cette saison ?`).waitFor();
    await check(page, 'season-inputs-ban');
    await dialog.getByRole('button', { name: 'Oui,bannir' }).click();
    await page.getByText(`${name} est bani de la saison avec succès`).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row.count()).toBe(0);
    // 400 kg of NPK at 350 F were held; the 40 kg delivered were paid from it, the rest is
    // the aggregator's to spend again.
    expect(await available()).toBe(before + (400 - 40) * 350);
    await page.close();
  });
});
