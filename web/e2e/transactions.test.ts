import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@filiere/api';
import { createLogger, parseConfig } from '@filiere/platform';
import { DEMO_SECOND_AGGREGATOR } from '@filiere/api/identity';
import { DEMO_REFUSED_BANK_ACCOUNT } from '@filiere/api/wallet';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import { browserMissingReason, explainFailures, launchBrowser } from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { movementsTable, signedInPage } from './support/session.js';

const missing = browserMissingReason();

const AGGREGATOR = 'agregateur@demo.filiere.bj';
const FIRST = 'Awa Dossou';
const SECOND = 'Codjo Hounkpatin';

/** Whitespace as one plain space (Intl groups thousands with narrow no-break spaces). */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * What a user reads of its own money: amounts signed by
 * direction, dates with their time, a withdrawal said to be under way with where it goes and
 * its end told live, the server's reason for a refusal, 'Paiements effectués' holding only
 * payments made, details that name the real means and the other side, and a confirmation
 * before a financing. One server and one browser; few page loads.
 */
describe.skipIf(missing !== null)('transactions as the user sees them, in Chromium', () => {
  explainFailures();
  let server: E2eServer;
  let browser: Browser;
  let page: Page;

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

  const check = async (on: Page, name: string) => {
    await on.waitForLoadState('networkidle');
    await screenshot(on, name);
    expect(await seriousViolations(on), name).toEqual([]);
  };

  /** The payout job, as the worker runs it: a second API instance on the same database. */
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

  const rows = (on: Page) => movementsTable(on).locator('tbody tr');
  /** The cells of a table row, by column title. */
  const cellsOf = async (on: Page, row: Locator) => {
    const titles = (await movementsTable(on).locator('thead th').allTextContents()).map(plain);
    const cells = (await row.locator('td').allTextContents()).map(plain);
    return Object.fromEntries(titles.map((title, i) => [title, cells[i] ?? '']));
  };

  /** 'Retirer' → means → amount; returns the dialog, ready to submit. */
  const openWithdraw = async (means: 'Mobile money' | 'Virement bancaire', amount: number) => {
    await page.getByRole('button', { name: 'Retirer', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: "Retirer de l'argent" }).waitFor();
    await dialog.locator('label', { hasText: means }).click();
    await dialog.getByLabel('Montant').fill(String(amount));
    return dialog;
  };

  it('Mon Wallet: every amount says in or out (sign, colour and words), every date its time', async () => {
    page = await signIn(AGGREGATOR, '/wallet');
    await page.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    // Every page of the movements (the demo's refund is not among the ten latest).
    const table: { cells: Record<string, string>; direction: string | null }[] = [];
    for (;;) {
      await rows(page).first().locator('[data-direction]').waitFor();
      table.push(
        ...(await Promise.all(
          (await rows(page).all()).map(async (row) => ({
            cells: await cellsOf(page, row),
            direction: await row.locator('[data-direction]').getAttribute('data-direction'),
          })),
        )),
      );
      // The movements' pager is the page's last (Mon Wallet's holds have one above it).
      const next = page.getByRole('button', { name: 'Page suivante' }).last();
      if (await next.isDisabled()) break;
      const first = await rows(page).first().textContent();
      await next.click();
      await expect.poll(() => rows(page).first().textContent()).not.toBe(first);
    }
    const transfer = table.find((r) => r.cells.Type === 'Transfert')!;
    const supply = table.find((r) => r.cells.Type === 'Approvisionnement');
    const refund = table.find((r) => r.cells.Type === 'Remboursement')!;
    // Paid: 'Sortie' for screen readers, then −; received: 'Entrée', then +.
    expect(transfer.direction).toBe('OUT');
    expect(transfer.cells['Montant FCFA']).toMatch(/^Sortie −\d[\d ]*$/);
    expect(refund.direction).toBe('IN');
    expect(refund.cells['Montant FCFA']).toMatch(/^Entrée \+\d[\d ]*$/);
    if (supply) expect(supply.direction).toBe('IN');
    // Red out, green in: two different colours, both readable (axe checks contrast below).
    const colour = (d: string) =>
      page
        .locator(`[data-direction="${d}"]`)
        .first()
        .evaluate((el) => getComputedStyle(el).color);
    expect(await colour('OUT')).not.toBe(await colour('IN'));
    // Rows of one day differ by their time.
    for (const row of table) expect(row.cells.Date).toMatch(/^\d{1,2} \S+ \d{4}, \d{2}:\d{2}$/);
    await check(page, 'transactions-wallet');
    // Back to the latest movements, where the next tests look for theirs.
    const last = await rows(page).first().textContent();
    await page.getByRole('button', { name: 'Page 1', exact: true }).last().click();
    await expect.poll(() => rows(page).first().textContent()).not.toBe(last);
  }, 120_000);

  it('Retirer: more than the available balance is refused in the form, before any call', async () => {
    const posts: string[] = [];
    const onRequest = (request: { method: () => string; url: () => string }) => {
      if (request.method() === 'POST') posts.push(request.url());
    };
    page.on('request', onRequest);
    try {
      const dialog = await openWithdraw('Mobile money', 50_000_000);
      await dialog
        .getByText(
          /^Le solde disponible de votre wallet est insuffisant\. Il manque [\d\s]+ F CFA$/u,
        )
        .waitFor();
      expect(await dialog.getByRole('button', { name: 'Retirer', exact: true }).isDisabled()).toBe(
        true,
      );
      expect(await page.getByText('La transation a échouée').count()).toBe(0);
      // The form stays open with its values, for another amount.
      expect(await dialog.getByRole('heading', { name: "Retirer de l'argent" }).count()).toBe(1);
      await dialog.getByRole('button', { name: 'Annuler' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(posts.filter((url) => url.includes('/api/wallet/make-debit'))).toEqual([]);
    } finally {
      page.off('request', onRequest);
    }
  }, 60_000);

  it('Retirer: says the withdrawal is under way and where it goes; its end arrives live', async () => {
    // Mobile money: paid by the payout job.
    let dialog = await openWithdraw('Mobile money', 10_000);
    const momo = plain(await dialog.getByTestId('withdraw-destination').textContent());
    expect(momo).toMatch(/^Le montant sera envoyé sur : \+229\d{10}$/);
    await dialog.getByRole('button', { name: 'Retirer', exact: true }).click();
    await dialog.getByRole('heading', { name: 'Retrait en cours' }).waitFor();
    const account = momo.replace('Le montant sera envoyé sur : ', '');
    expect(plain(await dialog.getByTestId('withdraw-result').textContent())).toBe(
      `Votre retrait de 10 000 FCFA vers ${account} (Mobile money) est en cours. Vous serez averti dès qu'il aura abouti.`,
    );
    expect(await page.getByText('Retrait effectué').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Terminer' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    // Bank: the demo aggregator's account is one the sandbox refuses. This dialog stays open.
    dialog = await openWithdraw('Virement bancaire', 20_000);
    expect(plain(await dialog.getByTestId('withdraw-destination').textContent())).toBe(
      `Le montant sera envoyé sur : ${DEMO_REFUSED_BANK_ACCOUNT}`,
    );
    await check(page, 'transactions-withdraw');
    await dialog.getByRole('button', { name: 'Retirer', exact: true }).click();
    await dialog.getByRole('heading', { name: 'Retrait en cours' }).waitFor();
    await check(page, 'transactions-withdraw-pending');
    const pendingRow = rows(page).filter({ hasText: /Retrait.*20\s000.*En attente/ });
    await pendingRow.first().waitFor();

    await runPayouts();
    // Pushed: a toast for each, the open dialog's outcome, and the rows' statuses.
    await page
      .getByText('Retrait effectué : votre retrait de 10 000 FCFA a été payé.')
      .waitFor({ timeout: 20_000 });
    await page
      .getByText(
        "Retrait échoué, montant remboursé : votre retrait de 20 000 FCFA n'a pas pu être payé, le montant a été remboursé sur votre wallet.",
      )
      .waitFor({ timeout: 20_000 });
    await dialog.getByRole('heading', { name: 'Retrait échoué, montant remboursé' }).waitFor();
    await check(page, 'transactions-withdraw-refunded');
    await dialog.getByRole('button', { name: 'Terminer' }).click();
    await expect
      .poll(async () => plain((await rows(page).allTextContents()).slice(0, 4).join(' | ')), {
        timeout: 20_000,
      })
      .toMatch(/Remboursement.*20 000.*Succès.*Retrait.*20 000.*Échouée.*Retrait.*10 000.*Succès/);
  }, 120_000);

  it('Financer un agrégateur asks for confirmation before moving money', async () => {
    await page.goto(`${server.baseUrl}/financements`);
    await page.getByRole('heading', { name: 'Financements' }).waitFor();
    await page.getByRole('button', { name: 'Financer un agrégateur' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Agrégateur').fill('Hounk');
    await page.getByRole('option', { name: new RegExp(SECOND) }).click();
    await dialog.getByLabel('Montant').fill('5000');
    await dialog.getByRole('button', { name: 'Financer', exact: true }).click();
    expect(plain(await dialog.getByTestId('financing-confirm').textContent())).toBe(
      `Êtes-vous sûr de vouloir verser 5 000 FCFA de financement à ${SECOND}`,
    );
    expect(await dialog.getByRole('button', { name: 'Annuler' }).count()).toBe(1);
    await check(page, 'transactions-financing-confirm');
    // Nothing moved yet: the list has no 5 000 row.
    expect(
      await rows(page)
        .filter({ hasText: /5\s000/ })
        .count(),
    ).toBe(0);
    await dialog.getByRole('button', { name: 'Oui, financer' }).click();
    await page.getByText('Financement effectué avec succès').waitFor();
    // Given: out of the wallet.
    const given = rows(page).filter({ hasText: new RegExp(`${SECOND}.*5\\s000`) });
    await given.first().waitFor({ timeout: 15_000 });
    expect(await given.first().locator('[data-direction]').getAttribute('data-direction')).toBe(
      'OUT',
    );
  }, 60_000);

  it('Paiements effectués lists only payments made; a withdrawal’s detail names its means and account', async () => {
    await page.goto(`${server.baseUrl}/paiements-effectues`);
    await page.getByRole('heading', { name: 'Paiements effectués' }).waitFor();
    await rows(page).first().locator('[data-direction]').waitFor();
    const types = (
      await Promise.all((await rows(page).all()).map((row) => cellsOf(page, row)))
    ).map((c) => c.Type);
    expect(types.length).toBeGreaterThan(3);
    expect(types).not.toContain('Approvisionnement');
    expect(types).not.toContain('Remboursement');
    expect(await page.locator('[data-direction="IN"]').count()).toBe(0);
    await check(page, 'transactions-payments');

    // The demo's refused bank withdrawal (120 000), among the failed payments: the demo's
    // seasons and contracts pay enough that it is no longer on the first page.
    await page.goto(`${server.baseUrl}/paiements-effectues?status=FAILED`);
    await page.getByRole('heading', { name: 'Paiements effectués' }).waitFor();
    await rows(page)
      .filter({ hasText: /Retrait.*120\s000.*Échouée/ })
      .getByRole('link', { name: /^Voir détails de / })
      .click();
    await page.getByRole('heading', { name: 'Détail du retrait' }).waitFor();
    expect(plain(await page.getByTestId('detail-means').textContent())).toBe('Virement bancaire');
    expect(plain(await page.getByTestId('detail-payout').textContent())).toBe(
      DEMO_REFUSED_BANK_ACCOUNT,
    );
    expect(plain(await page.getByTestId('detail-amount').textContent())).toMatch(
      /^Sortie −120 000 F CFA$/,
    );
    await check(page, 'transactions-withdrawal-detail');
  }, 60_000);

  it('the recipient of a payment sees who sent it', async () => {
    const second = await signIn(DEMO_SECOND_AGGREGATOR, '/wallet');
    await second.getByRole('heading', { name: 'Mon Wallet' }).waitFor();
    // The demo's financing from the first aggregator: a payment received.
    const received = rows(second).filter({ hasText: /Paiement.*100\s000/ });
    await received.first().waitFor();
    expect(await received.first().locator('[data-direction]').getAttribute('data-direction')).toBe(
      'IN',
    );
    await received
      .first()
      .getByRole('link', { name: /^Voir détails de / })
      .click();
    await second.getByRole('heading', { name: `Détail paiement reçu de ${FIRST}` }).waitFor();
    expect(plain(await second.getByTestId('detail-counterparty').textContent())).toBe(FIRST);
    expect(await second.getByText("Nom de l'émetteur").count()).toBe(1);
    expect(plain(await second.getByTestId('detail-means').textContent())).toBe('Wallet');
    await check(second, 'transactions-received-detail');
    await second.context().close();
  }, 60_000);
});
