import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@filiere/api';
import { createLogger, parseConfig } from '@filiere/platform';
import { pgPushSource, type PushSource } from '@filiere/projections';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import {
  browserMissingReason,
  explainFailures,
  launchBrowser,
  pollLikePages,
} from './support/browser.js';
import { builtWebCopy } from './support/build.js';
import { freePort } from './support/free-port.js';
import { startProviderStandIn, type ProviderStandIn } from './support/provider-widgets.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { signedInPage } from './support/session.js';

const missing = browserMissingReason();

const AGGREGATOR = 'agregateur@demo.filiere.bj';
const SUPER_ADMIN = 'superadmin@demo.filiere.bj';

/**
 * Supplies: a refused payment becomes 'Échouée'; 'Réessayer' and 'Annuler' on a
 * supply still waiting for its payment; the payer's number and its operator; 'Télécharger';
 * the copy icons of the bank information; the super admin sees who asked and can reject
 * with a reason, which the requester hears live; and the real widgets (KKiaPay, FedaPay)
 * loaded from the configured script — a local stand-in — and allowed by the CSP.
 */
describe.skipIf(missing !== null)('supplies in Chromium', () => {
  explainFailures();
  // A poll waits as long as a locator: on a loaded machine a row's new status can come after
  // vitest's default 1 s ('Nouveau' for 'Échouée').
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let aggregator: Page;
  let bankReference: string;

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
  const signIn = (baseUrl: string, email: string, target: string): Promise<Page> =>
    signedInPage(browser, baseUrl, email, server.password, target);

  /** axe: no serious or critical violation; and a screenshot for review. */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  /** The status cell of a supply's row. */
  const statusOf = (page: Page, reference: string) =>
    page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: reference, exact: true }) })
      .getByRole('cell')
      .nth(4);

  /** 'Nouvel approvisionnement' by mobile money; the dialog, filled, before 'Valider'. */
  const newMobileSupply = async (page: Page, amount: number) => {
    await page.getByRole('button', { name: 'Nouvel approvisionnement' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Montant').fill(String(amount));
    await expect.poll(() => dialog.getByLabel(/^Numéro mobile money/).inputValue()).not.toBe('');
    return dialog;
  };

  /** Submits, and returns the sandbox's payment window and the reference it pays. */
  const openSandbox = async (page: Page, submit: () => Promise<void>) => {
    const [popup] = await Promise.all([page.waitForEvent('popup'), submit()]);
    await popup.waitForURL(/\/api\/sandbox\/pay\//);
    const reference = decodeURIComponent(new URL(popup.url()).pathname.split('/').pop() as string);
    await popup.getByRole('button', { name: 'Payer' }).waitFor();
    return { popup, reference };
  };

  it('a refused payment is Échouée; Réessayer pays the same reference; Annuler cancels; the number and its operator', async () => {
    aggregator = await signIn(server.baseUrl, AGGREGATOR, '/approvisionnements');
    await aggregator.getByRole('heading', { name: 'Approvisionnements' }).waitFor();

    // The payer's number, prefilled from the profile (+2290197000003), and its operator.
    let dialog = await newMobileSupply(aggregator, 3_000);
    const number = dialog.getByLabel(/^Numéro mobile money/);
    expect(await number.inputValue()).toBe('0197000003');
    expect(await dialog.getByTestId('supply-operator').textContent()).toBe('Opérateur : MTN');
    await number.fill('95000001');
    expect(await dialog.getByTestId('supply-operator').textContent()).toBe('Opérateur : MOOV');
    await number.fill('0197000003');
    await check(aggregator, 'supplies-modal-number');

    // Refuser in the widget: the server verifies the refusal, the row turns 'Échouée'.
    const refused = await openSandbox(aggregator, () =>
      dialog.getByRole('button', { name: 'Valider' }).click(),
    );
    await refused.popup.getByRole('button', { name: 'Refuser' }).click();
    await aggregator.getByText("Le paiement n'a pas abouti").first().waitFor();
    await expect.poll(() => statusOf(aggregator, refused.reference).textContent()).toBe('Échouée');
    expect(
      await aggregator.getByRole('button', { name: `Réessayer ${refused.reference}` }).count(),
    ).toBe(0);

    // A payment window closed without a choice: the supply waits ('Nouveau'), with
    // 'Réessayer', which reopens the widget for the same reference, and 'Annuler'.
    dialog = await newMobileSupply(aggregator, 4_000);
    const left = await openSandbox(aggregator, () =>
      dialog.getByRole('button', { name: 'Valider' }).click(),
    );
    // The dialog notices the closed window and lets the payer come back to it later.
    await left.popup.close();
    await aggregator.getByText('Paiement interrompu').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => statusOf(aggregator, left.reference).textContent()).toBe('Nouveau');
    await aggregator.getByRole('button', { name: `Annuler ${left.reference}` }).waitFor();
    await check(aggregator, 'supplies-waiting-row');
    const again = await openSandbox(aggregator, () =>
      aggregator.getByRole('button', { name: `Réessayer ${left.reference}` }).click(),
    );
    expect(again.reference).toBe(left.reference);
    await again.popup.getByRole('button', { name: 'Payer' }).click();
    await aggregator.getByText('Approvisionnement effectuée avec succès').first().waitFor();
    await expect.poll(() => statusOf(aggregator, left.reference).textContent()).toBe('Succès');

    // Annuler, after a confirm step: an event, the row 'Annulée'.
    dialog = await newMobileSupply(aggregator, 5_000);
    const dropped = await openSandbox(aggregator, () =>
      dialog.getByRole('button', { name: 'Valider' }).click(),
    );
    await dropped.popup.close();
    await dialog.waitFor({ state: 'hidden' });
    await aggregator.getByRole('button', { name: `Annuler ${dropped.reference}` }).click();
    const confirm = aggregator.getByRole('dialog');
    expect(
      (await confirm.getByTestId('cancel-supply-text').textContent())?.replace(/\s/g, ' '),
    ).toBe(
      `L'approvisionnement ${dropped.reference} de 5 000 FCFA sera annulé. Vous pourrez en créer un autre.`,
    );
    await check(aggregator, 'supplies-cancel-confirm');
    await confirm.getByRole('button', { name: 'Oui, annuler' }).click();
    await aggregator.getByText('Approvisionnement annulé').first().waitFor();
    await expect.poll(() => statusOf(aggregator, dropped.reference).textContent()).toBe('Annulée');

    // 'Télécharger': both tabs in one .xlsx, French labels, Benin local time with the hour.
    const [download] = await Promise.all([
      aggregator.waitForEvent('download'),
      aggregator.getByRole('button', { name: 'Télécharger' }).click(),
    ]);
    const dir = mkdtempSync(path.join(tmpdir(), 'supplies-xlsx-'));
    const file = path.join(dir, 'supplies.xlsx');
    await download.saveAs(file);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    rmSync(dir, { recursive: true, force: true });
    const sheet = book.getWorksheet('Approvisionnements')!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      'Référence',
      'Moyen de paiement',
      'Banque',
      'Numéro mobile money',
      'Montant (FCFA)',
      'Statut',
      'Motif',
      'Date (heure du Bénin)',
      'Mis à jour (heure du Bénin)',
    ]);
    const byRef = new Map(rows.map((r) => [r[0], r]));
    expect(byRef.get(refused.reference)?.[5]).toBe('Échouée');
    expect(byRef.get(left.reference)?.slice(1, 6)).toEqual([
      'Mobile money',
      undefined,
      '01 97 00 00 03',
      4_000,
      'Succès',
    ]);
    expect(byRef.get(dropped.reference)?.[5]).toBe('Annulée');
    // The demo's pending bank supply (the other tab) is in the same file.
    expect(rows.some((r) => r[1] === 'Virement bancaire')).toBe(true);
    // Benin time: the row's date is within minutes of now, read as local (UTC+1) time.
    const written = byRef.get(left.reference)?.[7] as Date;
    expect(Math.abs(written.getTime() - (Date.now() + 3_600_000))).toBeLessThan(10 * 60_000);
  }, 180_000);

  it('the bank information’s copy buttons are icons, not a glyph missing from the font', async () => {
    await aggregator.getByRole('tab', { name: 'Virement bancaire' }).click();
    await aggregator.getByRole('button', { name: 'Nouvel approvisionnement' }).click();
    const dialog = aggregator.getByRole('dialog');
    await dialog.locator('label', { hasText: 'Virement bancaire' }).click();
    await expect
      .poll(() => dialog.getByRole('radio', { name: 'Virement bancaire' }).isChecked())
      .toBe(true);
    await dialog.getByLabel('Montant').fill('750000');
    await dialog.getByRole('button', { name: 'Valider' }).click();
    bankReference = (await aggregator.getByTestId('bank-reference').textContent())!;
    for (const field of ['bank-name', 'bank-account', 'bank-reference']) {
      const button = aggregator.getByTestId(`copy-${field}`);
      expect(await button.locator('svg').count(), field).toBe(1);
      expect((await button.textContent())?.trim(), field).toBe('');
    }
    expect(await aggregator.getByRole('dialog').textContent()).not.toMatch(/[⧉✓]/);
    await check(aggregator, 'supplies-bank-info-icons');
    await aggregator.getByRole('button', { name: "J'ai compris" }).click();
  }, 90_000);

  it('the super admin sees who asked, rejects with a reason, and the requester is told live', async () => {
    const admin = await signIn(server.baseUrl, SUPER_ADMIN, '/admin/approvisionnements');
    await admin.getByRole('heading', { name: 'Validation des approvisionnements' }).waitFor();
    await admin.getByRole('searchbox', { name: 'Rechercher' }).fill(bankReference);
    const row = admin
      .getByRole('row')
      .filter({ has: admin.getByRole('cell', { name: bankReference, exact: true }) });
    await row.waitFor();
    expect(await admin.getByRole('columnheader', { name: 'Demandeur' }).count()).toBe(1);
    expect(await row.textContent()).toContain('Awa Dossou');
    expect(await row.textContent()).toContain('Ananas Export SA');
    await check(admin, 'supplies-admin-requester');

    // 'Valider' names the requester too.
    await admin.getByRole('button', { name: `Valider ${bankReference}` }).click();
    expect(
      await admin.getByRole('dialog').getByTestId('validate-requester').textContent(),
    ).toContain('Awa Dossou');
    await admin.getByRole('dialog').getByRole('button', { name: 'Annuler' }).click();

    await admin.getByRole('button', { name: `Rejeter ${bankReference}` }).click();
    const modal = admin.getByRole('dialog');
    expect(await modal.textContent()).toContain('Ananas Export SA');
    const submit = modal.getByRole('button', { name: 'Rejeter', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await modal.getByLabel(/^Motif du rejet/).fill('Aucun virement reçu sur le compte');
    await expect.poll(() => submit.isDisabled()).toBe(false);
    await check(admin, 'supplies-admin-reject');
    await submit.click();
    await admin.getByText('Approvisionnement rejeté').first().waitFor();
    await expect
      .poll(() => row.getByRole('cell').nth(5).textContent(), { timeout: 15_000 })
      .toBe('Rejetée');
    expect(await admin.getByRole('button', { name: `Valider ${bankReference}` }).count()).toBe(0);

    // The requester's open page: a toast by push, and the row's new status and reason.
    await aggregator
      .getByText(
        `Votre approvisionnement ${bankReference} a été rejeté : Aucun virement reçu sur le compte`,
      )
      .waitFor({ timeout: 20_000 });
    await expect
      .poll(() => statusOf(aggregator, bankReference).textContent(), { timeout: 20_000 })
      .toContain('Rejetée');
    expect(await aggregator.getByTestId(`supply-reason-${bankReference}`).textContent()).toBe(
      'Motif : Aucun virement reçu sur le compte',
    );
    // And by mail, with the link to the supplies.
    const link = await server.mail.linkTo(AGGREGATOR, '/approvisionnements');
    expect(link.searchParams.get('tab')).toBe('bank');
    await check(aggregator, 'supplies-rejected-requester');
    await admin.context().close();
  }, 120_000);

  describe('real payment widgets against local stand-ins', () => {
    let standIn: ProviderStandIn;
    const instances: { app: FastifyInstance; pushes: PushSource; remove(): void }[] = [];

    beforeAll(async () => {
      standIn = await startProviderStandIn();
    });
    afterAll(async () => {
      for (const i of instances) {
        await i.app.close();
        await i.pushes.close();
        i.remove();
      }
      await standIn?.close();
    });

    /** An API serving the web app with a real provider configured, on the same database. */
    const startWithProvider = async (env: Record<string, string>): Promise<string> => {
      const web = await builtWebCopy();
      const port = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      const pushes = pgPushSource(server.db.url);
      const app = await buildApp({
        config: parseConfig({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          PUBLIC_URL: baseUrl,
          TRUST_PROXY: 'loopback',
          ...env,
        }),
        db: server.db.db,
        logger: createLogger('silent', false),
        webDir: web.dir,
        realtime: { pushes },
      });
      instances.push({ app, pushes, remove: web.remove });
      await app.listen({ port, host: '127.0.0.1' });
      return baseUrl;
    };

    const providerCalls = (page: Page) =>
      page.evaluate(
        () =>
          (window as unknown as { __providerCalls?: { provider: string; options: any }[] })
            .__providerCalls ?? [],
      );

    it('KKiaPay: k.js from the setting, allowed by the CSP; a refusal is Échouée, a payment credits', async () => {
      const baseUrl = await startWithProvider({
        PAYMENT_PROVIDER: 'kkiapay',
        PAYOUT_PROVIDER: 'sandbox',
        KKIAPAY_PUBLIC_KEY: 'pk_standin_kkiapay',
        KKIAPAY_PRIVATE_KEY: 'private',
        KKIAPAY_SECRET_KEY: 'secret',
        KKIAPAY_BASE_URL: standIn.kkiapayApi,
        KKIAPAY_WIDGET_SCRIPT_URL: standIn.kkiapayScript,
      });
      const page = await signIn(baseUrl, AGGREGATOR, '/approvisionnements');
      const answer = await page.request.get(`${baseUrl}/approvisionnements`);
      const csp = answer.headers()['content-security-policy']!;
      const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'))!;
      expect(scriptSrc.trim().split(/\s+/).slice(1)).toEqual(["'self'", standIn.origin]);
      await page.getByRole('heading', { name: 'Approvisionnements' }).waitFor();

      let dialog = await newMobileSupply(page, 6_000);
      await dialog.getByRole('button', { name: 'Valider' }).click();
      const widget = page.getByRole('dialog', { name: 'KKiaPay (test)' });
      await widget.waitFor();
      const [call] = await providerCalls(page);
      expect(call).toMatchObject({
        provider: 'kkiapay',
        options: {
          amount: 6_000,
          key: 'pk_standin_kkiapay',
          sandbox: true,
          phone: '2290197000003',
        },
      });
      const refusedRef = call!.options.data as string;
      expect(call!.options.partnerId).toBe(refusedRef);
      await widget.getByRole('button', { name: 'Refuser le paiement KKiaPay' }).click();
      await page.getByText("Le paiement n'a pas abouti").first().waitFor();
      await expect.poll(() => statusOf(page, refusedRef).textContent()).toBe('Échouée');

      dialog = await newMobileSupply(page, 7_000);
      await dialog.getByRole('button', { name: 'Valider' }).click();
      await widget.getByRole('button', { name: 'Payer avec KKiaPay' }).click();
      await page.getByText('Approvisionnement effectuée avec succès').first().waitFor();
      const paidRef = (await providerCalls(page))[1]!.options.data as string;
      await expect.poll(() => statusOf(page, paidRef).textContent()).toBe('Succès');
      // The server asked the provider about both transactions.
      expect(standIn.verifications.filter((v) => v.provider === 'kkiapay')).toHaveLength(2);
      await page.context().close();
    }, 120_000);

    it('FedaPay: Checkout.js from the setting; closed without paying it waits, Réessayer pays it', async () => {
      const baseUrl = await startWithProvider({
        PAYMENT_PROVIDER: 'fedapay',
        FEDAPAY_PUBLIC_KEY: 'pk_sandbox_standin',
        FEDAPAY_SECRET_KEY: 'sk_sandbox_standin',
        FEDAPAY_BASE_URL: standIn.fedapayApi,
        FEDAPAY_CHECKOUT_SCRIPT_URL: standIn.fedapayScript,
      });
      const page = await signIn(baseUrl, AGGREGATOR, '/approvisionnements');
      await page.getByRole('heading', { name: 'Approvisionnements' }).waitFor();
      const dialog = await newMobileSupply(page, 8_000);
      await dialog.getByRole('button', { name: 'Valider' }).click();
      const widget = page.getByRole('dialog', { name: 'FedaPay (test)' });
      await widget.getByRole('button', { name: 'Fermer FedaPay' }).click();
      await page.getByText('Paiement interrompu').first().waitFor();
      const [first] = await providerCalls(page);
      expect(first).toMatchObject({
        provider: 'fedapay',
        options: {
          public_key: 'pk_sandbox_standin',
          environment: 'sandbox',
          transaction: { amount: 8_000 },
          customer: {
            firstname: 'Awa',
            lastname: 'Dossou',
            email: AGGREGATOR,
            phone_number: { number: '+2290197000003', country: 'bj' },
          },
        },
      });
      const reference = first!.options.transaction.custom_metadata.reference as string;
      await expect.poll(() => statusOf(page, reference).textContent()).toBe('Nouveau');

      await page.getByRole('button', { name: `Réessayer ${reference}` }).click();
      await widget.getByRole('button', { name: 'Payer avec FedaPay' }).click();
      await page.getByText('Approvisionnement effectuée avec succès').first().waitFor();
      await expect.poll(() => statusOf(page, reference).textContent()).toBe('Succès');
      const calls = await providerCalls(page);
      expect(calls[1]!.options.transaction.custom_metadata.reference).toBe(reference);
      await page.context().close();
    }, 120_000);
  });
});
