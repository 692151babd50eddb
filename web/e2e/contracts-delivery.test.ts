import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import {
  browserMissingReason,
  explainFailures,
  launchBrowser,
  pollLikePages,
} from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { signedInPage } from './support/session.js';

/** Today in Porto-Novo (UTC+1): the day the API and the browsers count in. */
function beninToday(): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Africa/Porto-Novo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

const missing = browserMissingReason();

const AGGREGATOR = 'agregateur@demo.filiere.bj';
const GROWER = 'producteur@demo.filiere.bj';
const SUPER_ADMIN = 'superadmin@demo.filiere.bj';
/** The representative of the demo grower's cooperative (Allada). */
const COOPERATIVE = 'cooperative@demo.filiere.bj';
/** The demo grower account's names (a grower of the actors' demo), given a plot below. */
const GROWER_NAME = { firstname: 'Basile', lastname: 'Ahouandjinou' };
/** The plot's estimated production as the API stores it, and as a French field shows it. */
const PLOT = { name: 'Parcelle des Manguiers', estimate: '42.5', estimateFr: '42,5' };

/**
 * Delivery contracts in a browser, on one server: the aggregator
 * creates a contract beyond its available balance (the 422 modal 'Il manque <amount> FCFA',
 * 'Approvisionner le wallet' opening the new supply), funds its wallet by a validated bank
 * supply and creates it; the grower signs in and confirms it while the aggregator's page
 * follows live; the aggregator records the weighed delivery; then runs three DELIVERED
 * contracts ('Action irrécersible', banner, cleared selection, toast) and watches each reach
 * COMPLETED without reloading. Every screen axe-checked.
 */
describe.skipIf(missing !== null)('delivery contracts in Chromium', { timeout: 300_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let aggregator: Page;
  let contractId = '';
  let reference = '';
  let growerId = '';
  let plotId = '';
  const tokens = new Map<string, string>();
  let client = 0;

  /** The API as one of the demo accounts (its own client address: the login limit is per IP). */
  const call = async <T = any>(
    email: string,
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<{ status: number; body: T }> => {
    if (!tokens.has(email)) {
      const login = await fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.88.0.${++client}` },
        body: JSON.stringify({ email, password: server.password }),
      });
      expect(login.status, `login ${email}`).toBe(200);
      tokens.set(email, ((await login.json()) as { access_token: string }).access_token);
    }
    const response = await fetch(`${server.baseUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens.get(email)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
    // The demo grower account (a grower of the aggregator's cluster) gets one more plot whose
    // estimated production pre-fills the form (as the contracts API tests set one up).
    const db = server.db.db;
    const users = await db
      .selectFrom('users')
      .select(['id', 'email', 'cluster_id'])
      .where('email', 'in', [GROWER, AGGREGATOR])
      .execute();
    const growerUser = users.find((u) => u.email === GROWER)!;
    const clusterId = users.find((u) => u.email === AGGREGATOR)!.cluster_id!;
    const existing = await db
      .selectFrom('growers')
      .select('id')
      .where('user_id', '=', growerUser.id)
      .executeTakeFirst();
    growerId =
      existing?.id ??
      (
        await db
          .insertInto('growers')
          .values({
            user_id: growerUser.id,
            cluster_id: clusterId,
            department_code: 'D03',
            commune_code: 'C017',
            arrondissement_code: 'A098',
            village_code: 'V1',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    plotId = (
      await db
        .insertInto('plots')
        .values({
          grower_id: growerId,
          product_type: 'CAYENNE_LISSE',
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
          name: PLOT.name,
          area_sown: '1',
          estimated_production: PLOT.estimate,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Signed in through the API (the login form is identity.test.ts's subject). */
  const signIn = (email: string, target: string): Promise<Page> =>
    signedInPage(browser, server.baseUrl, email, server.password, target);

  /** axe: no serious or critical violation; and a screenshot for review. */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  /** The delivery form filled for the demo grower's plot, with `amount`. */
  const fillForm = async (page: Page, amount: number) => {
    await page.getByRole('heading', { name: 'Nouveau contrat de livraison' }).waitFor();
    const grower = page.getByTestId('contract-grower');
    await grower.fill(GROWER_NAME.lastname);
    await page
      .getByRole('option', { name: new RegExp(`${GROWER_NAME.firstname} ${GROWER_NAME.lastname}`) })
      .click();
    await page.getByTestId('contract-plot').click();
    await page.getByRole('option', { name: new RegExp(PLOT.name) }).click();
    // The plot's estimated production pre-fills the quantity; its type is set.
    await expect
      .poll(() => page.getByLabel(/^Quantité \(tonnes\)/).inputValue())
      .toBe(PLOT.estimateFr);
    expect(await page.getByRole('combobox', { name: "Type d'ananas" }).inputValue()).toBe(
      'Cayenne lisse',
    );
    // The delivery date defaults to five months from today.
    expect(await page.getByLabel(/^Date de livraison/).inputValue()).toMatch(
      /^\d{2}\/\d{2}\/\d{4}$/,
    );
    await page.getByLabel(/^Montant \(FCFA\)/).fill(String(amount));
  };

  const availableBalance = async () =>
    (await call<{ availableBalance: number }>(AGGREGATOR, 'GET', '/wallet/stats')).body
      .availableBalance;

  it('a shortfall is the 422 modal; funded by a validated bank supply, the same form creates the contract', async () => {
    aggregator = await signIn(AGGREGATOR, '/contrats/livraison');
    await aggregator.getByRole('heading', { name: 'Contrats de livraison' }).waitFor();
    await check(aggregator, 'contracts-delivery-list');

    await aggregator.getByRole('link', { name: 'Nouveau contrat' }).click();
    await aggregator.waitForURL((url) => url.pathname === '/contrats/livraison/create');
    // The form's own messages: the spec's French texts, and the submit stays disabled.
    await aggregator.getByLabel(/^Quantité \(tonnes\)/).fill('1.2345');
    await aggregator
      .getByText("La quantité s'exprime en tonnes avec 3 décimales au plus")
      .waitFor();
    expect(await aggregator.getByRole('button', { name: 'Créer le contrat' }).isDisabled()).toBe(
      true,
    );
    await aggregator.getByLabel(/^Quantité \(tonnes\)/).fill('');

    const amount = (await availableBalance()) + 250_000;
    await fillForm(aggregator, amount);
    await check(aggregator, 'contracts-delivery-create');
    await aggregator.getByRole('button', { name: 'Créer le contrat' }).click();
    const modal = aggregator.getByRole('dialog');
    const text = modal.getByTestId('insufficient-balance');
    await text.waitFor();
    expect(await text.textContent()).toBe(
      'Le solde disponible de votre wallet est insuffisant pour créer ce contrat. Il manque 250 000 FCFA',
    );
    await check(aggregator, 'contracts-delivery-insufficient');

    // 'Approvisionner le wallet' opens the supplies page with its new-supply modal.
    await modal.getByRole('button', { name: 'Approvisionner le wallet' }).click();
    await aggregator.waitForURL((url) => url.pathname === '/approvisionnements');
    await aggregator.getByRole('dialog').getByLabel('Montant').waitFor();
    await aggregator.goBack();
    await aggregator.waitForURL((url) => url.pathname === '/contrats/livraison/create');

    // Funded through a bank supply the super admin validates.
    const supply = await call<{ reference: string }>(
      AGGREGATOR,
      'POST',
      '/supply',
      {
        amount: 500_000,
        walletId: (await call<{ walletId: string }>(AGGREGATOR, 'GET', '/users/me')).body.walletId,
        accountType: 'BANK',
        bank: 'BAB',
      },
      `e2e-supply-${Date.now()}`,
    );
    expect(supply.status).toBe(201);
    const validated = await call(
      SUPER_ADMIN,
      'POST',
      '/supply/validate-bank-supply',
      { supplyReference: supply.body.reference, reference: supply.body.reference },
      `e2e-validate-${Date.now()}`,
    );
    expect(validated.status).toBeLessThan(300);
    await expect.poll(availableBalance).toBeGreaterThanOrEqual(amount);

    await fillForm(aggregator, amount);
    await aggregator.getByRole('button', { name: 'Créer le contrat' }).click();
    const success = aggregator.getByRole('dialog');
    await success.getByText('Contrat créé avec succès !').waitFor();
    reference = ((await success.textContent()) ?? '').match(/LIV-[0-9A-F]{8}/)![0];
    await check(aggregator, 'contracts-delivery-created');
    await success.getByRole('button', { name: 'Voir le contrat' }).click();
    await aggregator.waitForURL((url) => url.pathname.startsWith('/contrats/livraison/show/'));
    contractId = aggregator.url().split('/').pop()!;
    await aggregator.getByRole('heading', { name: `Contrat de livraison ${reference}` }).waitFor();
    expect(await aggregator.getByTestId('contract-status').textContent()).toBe('En attente');
    await check(aggregator, 'contracts-delivery-detail-pending');
  });

  it('the grower confirms; the aggregator’s page turns ready for delivery live', async () => {
    const grower = await signIn(GROWER, `/contrats/livraison/show/${contractId}`);
    await grower.getByRole('heading', { name: `Contrat de livraison ${reference}` }).waitFor();
    // The grower sees no aggregator action.
    expect(await grower.getByRole('button', { name: 'Enregistrer la livraison' }).count()).toBe(0);
    await grower.getByRole('button', { name: 'Confirmer' }).click();
    await check(grower, 'contracts-delivery-confirm');
    await grower.getByRole('dialog').getByRole('button', { name: 'Confirmer' }).click();
    await expect
      .poll(() => grower.getByTestId('contract-status').textContent())
      .toBe('prêt pour la livraison');
    await grower.getByRole('dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => grower.getByRole('button', { name: 'Confirmer' }).count()).toBe(0);
    await grower.close();
    // No reload on the aggregator's side: the contracts.updated push refreshes its page.
    await expect
      .poll(() => aggregator.getByTestId('contract-status').textContent())
      .toBe('prêt pour la livraison');
  });

  it('the aggregator records the weighed delivery', async () => {
    await aggregator.getByRole('button', { name: 'Enregistrer la livraison' }).click();
    const dialog = aggregator.getByRole('dialog');
    const quantity = dialog.getByLabel(/^Quantité pesée \(tonnes\)/);
    expect(await quantity.inputValue()).toBe(PLOT.estimateFr);
    await quantity.fill('40,5');
    // The day of the weighing, typed day first: today in Porto-Novo, as the API counts days.
    const [y, m, d] = beninToday().split('-');
    const day = dialog.getByLabel(/^Date de la pesée/);
    await day.fill(`${d}/${m}/${y}`);
    await day.blur();
    await dialog.getByTestId('delivery-worth').waitFor();
    await check(aggregator, 'contracts-delivery-record');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => aggregator.getByTestId('contract-status').textContent())
      .toBe('Livraison disponible');
    await aggregator.getByText('40,5 t').waitFor();
    expect(await aggregator.getByRole('button', { name: 'Annuler le contrat' }).count()).toBe(0);
  });

  it('runs three delivered contracts and watches them complete live', async () => {
    // Two more contracts, confirmed and delivered through the API.
    const references = [reference];
    for (const n of [1, 2]) {
      const created = await call<{ contractId: string; reference: string }>(
        AGGREGATOR,
        'POST',
        '/contracts/delivery-contract',
        { growerId, productId: plotId, quantity: 2 + n, amount: 50_000 * n },
        `e2e-contract-${n}-${Date.now()}`,
      );
      expect(created.status).toBe(201);
      const id = created.body.contractId;
      expect(
        (await call(GROWER, 'PATCH', `/contracts/delivery-contract/${id}/confirm`)).status,
      ).toBeLessThan(300);
      const delivered = await call(
        AGGREGATOR,
        'PATCH',
        `/contracts/delivery-contract/${id}/delivery`,
        {
          quantity: 2 + n,
          deliveredOn: beninToday(),
        },
      );
      expect(delivered.status).toBeLessThan(300);
      references.push(created.body.reference);
    }

    await aggregator.getByRole('link', { name: 'Retour aux contrats' }).click();
    await aggregator.waitForURL((url) => url.pathname === '/contrats/livraison');
    await aggregator.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));
    for (const ref of references) {
      const box = aggregator.getByRole('checkbox', { name: `Sélectionner le contrat ${ref}` });
      await expect.poll(() => box.isEnabled()).toBe(true);
      await box.check();
    }
    await aggregator.getByText('3 contrat(s) sélectionné(s)').waitFor();
    await aggregator.getByRole('button', { name: 'Exécuter', exact: true }).click();
    const warning = aggregator.getByRole('dialog', { name: 'Action irrécersible' });
    await warning.waitFor();
    await check(aggregator, 'contracts-delivery-run-warning');
    // The contract runs' loop, as the API runs it outside tests (NODE_ENV=test leaves it off):
    // the page hears of each contract only through the contracts.run pushes.
    const runner = (
      server.app as unknown as { contracts: { runner: { runDue(): Promise<number> } } }
    ).contracts.runner;
    let driving = true;
    const loop = (async () => {
      while (driving) {
        await runner.runDue().catch(() => 0);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })();
    onTestFinished(async () => {
      driving = false;
      await loop;
    });
    await warning.getByRole('button', { name: 'Oui, exécuter' }).click();
    await aggregator.getByText("Contract(s) en cours d'exécution").first().waitFor();
    // The selection is cleared, the banner shows, then every contract completes, live.
    await expect.poll(() => aggregator.getByTestId('run-bar').count()).toBe(0);
    const progress = aggregator.getByTestId('run-progress');
    await progress.waitFor();
    await expect.poll(() => progress.getAttribute('data-finished')).toBe('true');
    expect(
      await progress.locator('[data-status="COMPLETED"]').count(),
      'each contract of the run COMPLETED',
    ).toBe(3);
    for (const ref of references) {
      await expect
        .poll(() =>
          aggregator
            .getByRole('row')
            .filter({ has: aggregator.getByRole('cell', { name: ref, exact: true }) })
            .getByText('Terminé')
            .count(),
        )
        .toBe(1);
    }
    expect(
      await aggregator.evaluate(() => (window as unknown as { noReload?: boolean }).noReload),
    ).toBe(true);
    await check(aggregator, 'contracts-delivery-run-done');

    // The settled contract shows the net paid to the grower.
    await aggregator.getByRole('link', { name: `Voir le contrat ${reference}` }).click();
    await aggregator.getByTestId('grower-net').waitFor();
    expect(await aggregator.getByTestId('grower-net').textContent()).toMatch(/^[\d ]+ FCFA$/);
    await check(aggregator, 'contracts-delivery-detail-completed');
  });

  it('the cooperative confirms with the code its grower received; the page shows the agreement', async () => {
    const created = await call<{ contractId: string; reference: string }>(
      AGGREGATOR,
      'POST',
      '/contracts/delivery-contract',
      { growerId, productId: plotId, quantity: 4, amount: 80_000 },
      `e2e-contract-consent-${Date.now()}`,
    );
    expect(created.status).toBe(201);
    const { contractId: id, reference: ref } = created.body;
    // The offer the grower received by SMS, with its one-time code.
    const db = server.db.db;
    const { phone } = await db
      .selectFrom('users')
      .select('phone')
      .where('email', '=', GROWER)
      .executeTakeFirstOrThrow();
    const offer = await db
      .selectFrom('sms_outbox')
      .select('text')
      .where('recipient', '=', phone!)
      .where('text', 'like', `%${ref}%`)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const code = /code (\d{6})$/.exec(offer.text)![1]!;
    const wrong = code === '000000' ? '111111' : '000000';

    const coop = await signedInPage(
      browser,
      server.baseUrl,
      COOPERATIVE,
      server.password,
      `/contrats/livraison/show/${id}`,
      { viewport: { width: 390, height: 844 } },
    );
    await coop.getByRole('heading', { name: `Contrat de livraison ${ref}` }).waitFor();
    await coop.getByText(/^Code envoyé au /).waitFor();
    await coop.getByRole('button', { name: 'Confirmer' }).click();
    const dialog = coop.getByRole('dialog');
    const field = dialog.getByLabel('Code reçu par le producteur');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await field.fill(wrong);
    await dialog.getByRole('button', { name: 'Confirmer' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await coop.getByTestId('contract-status').textContent()).toBe('En attente');
    await check(coop, 'contracts-delivery-confirm-code');
    await field.fill(code);
    await dialog.getByRole('button', { name: 'Confirmer' }).click();
    await expect
      .poll(() => coop.getByTestId('contract-status').textContent())
      .toBe('prêt pour la livraison');
    await expect
      .poll(() => coop.getByTestId('acceptance-method').textContent())
      .toBe('Code à usage unique reçu par SMS');
    await check(coop, 'contracts-delivery-accepted');
    await coop.close();
  });
});
