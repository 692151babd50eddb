import { mkdirSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
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
import { signedInPage } from './support/session.js';

const missing = browserMissingReason();

const AGGREGATOR = 'agregateur@demo.filiere.bj';
const GROWER = 'producteur@demo.filiere.bj';

/** 'DD/MM/YYYY' of a day `days` from now (as the date fields are typed). */
const dayFromNow = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  const [y, m, day] = d.toISOString().slice(0, 10).split('-');
  return `${day}/${m}/${y}`;
};

/**
 * The text of a PDF made by pdfkit: every (Flate-compressed) content stream inflated, and the
 * hex strings of its TJ arrays decoded (built-in fonts write WinAnsi bytes as hex).
 */
function pdfText(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const lines: string[] = [];
  // Each stream is read by its dictionary's /Length: the deflated bytes may themselves end
  // in '\r' or hold '\nendstream', which a search for the end marker would misread.
  for (const match of source.matchAll(/\/Length (\d+)[^>]*>>\s*stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const raw = pdf.subarray(start, start + Number(match[1]));
    let content: string;
    try {
      content = inflateSync(raw).toString('latin1');
    } catch {
      content = raw.toString('latin1');
    }
    for (const tj of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      lines.push(
        [...tj[1]!.matchAll(/<([0-9a-fA-F]*)>/g)]
          .map((m) => Buffer.from(m[1]!, 'hex').toString('latin1'))
          .join(''),
      );
    }
  }
  return lines.join('\n');
}

/**
 * Contract documents and the remaining contract screens in one
 * browser on one server: a delivery contract's PDF in the viewer (pdf.js draws the page, its
 * text holds the reference; the download link serves the PDF; 'Retour' goes back); the
 * grower's statement, downloaded by the grower from 'Mon relevé' and by the aggregator from
 * the contract's page; a carriage contract created by the aggregator, listed, and shown on its
 * carrier's Contrats tab; the input supply contracts' list (search, empty state) and a
 * contract's page. Every screen axe-checked.
 */
describe.skipIf(missing !== null)('contract documents in Chromium', { timeout: 300_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let aggregator: Page;
  let contractId = '';
  let reference = '';
  let growerId = '';
  const tokens = new Map<string, string>();
  let client = 0;

  /** The API as one of the demo accounts (its own client address: the login limit is per IP). */
  const call = async <T = any>(
    email: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> => {
    if (!tokens.has(email)) {
      const login = await fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.89.0.${++client}` },
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
    // The demo grower account: a grower of the aggregator's cluster with a plot, and a
    // delivery contract the aggregator makes through the API.
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
    const plot = await db
      .insertInto('plots')
      .values({
        grower_id: growerId,
        product_type: 'CAYENNE_LISSE',
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A098',
        village_code: 'V1',
        name: 'Parcelle du relevé',
        area_sown: '1',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const created = await call<{ contractId: string; reference: string }>(
      AGGREGATOR,
      'POST',
      '/contracts/delivery-contract',
      { growerId, productId: plot.id, quantity: 1, amount: 10_000 },
    );
    expect(created.status).toBe(201);
    ({ contractId, reference } = created.body);
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

  /**
   * The viewer drew the PDF: a page canvas, and the page's text (pdf.js's extraction, kept for
   * screen readers) holding `text`; the download link serves the same PDF, whose bytes start
   * with %PDF and whose own text holds `text` too.
   */
  const viewerShows = async (page: Page, title: string, text: string) => {
    await page.waitForURL((url) => url.pathname.startsWith('/pdf/viewer/'));
    await page.getByRole('heading', { name: title }).waitFor();
    await page.locator('canvas[role="img"]').first().waitFor();
    await expect
      .poll(async () => (await page.locator('.pdf-page-text').allTextContents()).join('\n'))
      .toContain(text);
    const href = await page.getByRole('link', { name: 'Télécharger le PDF' }).getAttribute('href');
    expect(href).toMatch(/^\/api\/contracts\/pdf\//);
    const pdf = Buffer.from(await (await fetch(`${server.baseUrl}${href}`)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfText(pdf)).toContain(text);
  };

  it('a delivery contract’s PDF opens in the viewer, downloads, and Retour goes back', async () => {
    aggregator = await signIn(AGGREGATOR, `/contrats/livraison/show/${contractId}`);
    await aggregator.getByRole('heading', { name: `Contrat de livraison ${reference}` }).waitFor();
    await aggregator.getByRole('button', { name: 'Voir le PDF' }).click();
    await viewerShows(aggregator, 'Contrat (PDF)', reference);
    await check(aggregator, 'contracts-documents-viewer');
    await aggregator.getByRole('button', { name: 'Retour' }).click();
    await aggregator.waitForURL((url) => url.pathname === `/contrats/livraison/show/${contractId}`);
  });

  it('the PDF’s QR opens the public verification page: status and hash, axe-clean at 390 px', async () => {
    const { body } = await call<{ url: string }>(
      AGGREGATOR,
      'GET',
      `/contracts/smarts-download/${contractId}`,
    );
    const pdf = Buffer.from(await (await fetch(`${server.baseUrl}${body.url}`)).arrayBuffer());
    // The URL the QR code encodes is printed under it (documents.test.ts decodes the code).
    const printed = pdfText(pdf).replace(/\s+/g, '');
    const match = printed.match(/\/verifier\/([0-9a-z]{20})/);
    expect(match, 'verification URL printed').not.toBeNull();
    const url = `${server.baseUrl}/verifier/${match![1]}`;
    expect(printed).toContain(url);
    const last = await server.db.db
      .selectFrom('events')
      .select('hash')
      .where('stream_id', '=', `contract-${contractId}`)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    // A stranger's phone: no session.
    const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(url);
    await page.getByRole('heading', { name: 'Vérification d’un document' }).waitFor();
    await expect
      .poll(() => page.getByTestId('verification-status').textContent())
      .toBe('En attente');
    expect(await page.getByTestId('verification-hash').textContent()).toBe(last.hash);
    await page.getByText('Empreinte vérifiée').waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toContain('Parcelle du relevé');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await check(page, 'verification-390');
    // An unknown reference: the French message.
    await page.goto(`${server.baseUrl}/verifier/abcdefghjkmnpqrstvwx`);
    await page.getByTestId('verification-error').waitFor();
    expect(await page.getByTestId('verification-error').textContent()).toContain(
      'Aucun document ne porte cette référence',
    );
    await check(page, 'verification-unknown-390');
    await page.close();
  });

  it('a paid contract’s receipt opens in the viewer; its QR’s page says Payé, axe-clean at 390 px', async () => {
    const paid = await server.db.db
      .selectFrom('delivery_contracts as dc')
      .innerJoin('users as u', 'u.id', 'dc.aggregator_user_id')
      .select(['dc.id', 'dc.reference'])
      .where('dc.status', '=', 'COMPLETED')
      .where('u.email', '=', AGGREGATOR)
      .executeTakeFirstOrThrow();
    await aggregator.goto(`${server.baseUrl}/contrats/livraison/show/${paid.id}`);
    await aggregator
      .getByRole('heading', { name: `Contrat de livraison ${paid.reference}` })
      .waitFor();
    await aggregator.getByRole('button', { name: 'Reçu de paiement' }).click();
    await viewerShows(aggregator, 'Reçu de paiement (PDF)', paid.reference);
    await check(aggregator, 'contracts-documents-receipt-viewer');
    const href = await aggregator
      .getByRole('link', { name: 'Télécharger le PDF' })
      .getAttribute('href');
    const pdf = Buffer.from(await (await fetch(`${server.baseUrl}${href}`)).arrayBuffer());
    const printed = pdfText(pdf).replace(/\s+/g, '');
    expect(printed).toContain('Netversé');
    const match = printed.match(/\/verifier\/([0-9a-z]{20})/);
    expect(match, 'verification URL printed').not.toBeNull();
    const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`${server.baseUrl}/verifier/${match![1]}`);
    await page.getByRole('heading', { name: 'Vérification d’un document' }).waitFor();
    await expect.poll(() => page.getByTestId('verification-status').textContent()).toBe('Payé');
    await page.getByText('Empreinte vérifiée').waitFor();
    await check(page, 'verification-receipt-390');
    await page.close();
    // An unpaid contract has no receipt button.
    await aggregator.goto(`${server.baseUrl}/contrats/livraison/show/${contractId}`);
    await aggregator.getByRole('button', { name: 'Voir le PDF' }).waitFor();
    expect(await aggregator.getByRole('button', { name: 'Reçu de paiement' }).count()).toBe(0);
  });

  it('the grower downloads its statement from Mon relevé; the aggregator from the contract’s page', async () => {
    const grower = await signIn(GROWER, '/contrats/releve');
    await grower.getByRole('heading', { name: 'Mon relevé' }).waitFor();
    expect(await grower.getByLabel(/^Date de début/).inputValue()).toMatch(/^01\/01\/\d{4}$/);
    await check(grower, 'contracts-documents-my-statement');
    // A start after the end: the form's French message, the button disabled.
    const end = await grower.getByLabel(/^Date de fin/).inputValue();
    await grower.getByLabel(/^Date de début/).fill(dayFromNow(-10));
    await grower.keyboard.press('Escape');
    await grower.getByLabel(/^Date de fin/).fill(dayFromNow(-30));
    await grower.keyboard.press('Escape');
    await grower.getByText('La date de début doit précéder la date de fin').waitFor();
    expect(await grower.getByRole('button', { name: 'Télécharger le relevé' }).isDisabled()).toBe(
      true,
    );
    await grower.getByLabel(/^Date de fin/).fill(end);
    await grower.keyboard.press('Escape');
    await grower.getByText('La date de début doit précéder la date de fin').waitFor({
      state: 'hidden',
    });
    await grower.getByRole('button', { name: 'Télécharger le relevé' }).click();
    await viewerShows(grower, 'Relevé du producteur (PDF)', reference);
    await check(grower, 'contracts-documents-statement-viewer');
    await grower.close();

    // The aggregator (no growers' pages) from the contract's page; the cooperative and the
    // admins have the same button on the grower's contracts.
    await aggregator.goto(`${server.baseUrl}/contrats/livraison/show/${contractId}`);
    await aggregator.getByRole('button', { name: 'Relevé (PDF)' }).click();
    const dialog = aggregator.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Télécharger le relevé' }).waitFor();
    await check(aggregator, 'contracts-documents-statement-modal');
    await dialog.getByRole('button', { name: 'Télécharger le relevé' }).click();
    await viewerShows(aggregator, 'Relevé du producteur (PDF)', reference);
  });

  it('a carriage contract created by the aggregator is listed and on its carrier’s Contrats tab', async () => {
    await aggregator.goto(`${server.baseUrl}/contrats/transport`);
    await aggregator.getByRole('heading', { name: 'Contrats de transport' }).waitFor();
    await check(aggregator, 'contracts-documents-carriage-list');
    const carrier = await server.db.db
      .selectFrom('carriers as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .innerJoin('vehicles as v', 'v.carrier_id', 'c.id')
      .select(['c.id', 'u.lastname', 'u.firstname'])
      .where(
        'c.cluster_id',
        '=',
        (
          await server.db.db
            .selectFrom('users')
            .select('cluster_id')
            .where('email', '=', AGGREGATOR)
            .executeTakeFirstOrThrow()
        ).cluster_id!,
      )
      .executeTakeFirstOrThrow();
    await aggregator.getByRole('button', { name: 'Nouveau contrat de transport' }).click();
    const dialog = aggregator.getByRole('dialog');
    await dialog.getByLabel(/^Transporteur/).fill(carrier.lastname);
    await aggregator
      .getByRole('option', { name: new RegExp(`${carrier.lastname} ${carrier.firstname}`) })
      .first()
      .click();
    await dialog.getByLabel(/^Véhicule/).click();
    await aggregator.getByRole('option').first().click();
    // Typed day first; blurred (Escape would close the modal).
    const day = dialog.getByLabel(/^Date de transport/);
    await day.fill(dayFromNow(3));
    await day.blur();
    await dialog.getByLabel(/^Montant/).fill('15000');
    await check(aggregator, 'contracts-documents-carriage-create');
    await dialog.getByRole('button', { name: 'Créer le contrat' }).click();
    const toast = aggregator.getByText(/Contrat de transport TRA-[0-9A-F]{8} créé avec succès/);
    await toast.waitFor();
    const carriage = ((await toast.textContent()) ?? '').match(/TRA-[0-9A-F]{8}/)![0];
    await aggregator.getByRole('cell', { name: carriage }).waitFor();

    await aggregator.goto(`${server.baseUrl}/transporteurs/show/${carrier.id}`);
    await aggregator.getByRole('tab', { name: 'Contrats' }).click();
    await aggregator.getByRole('cell', { name: carriage }).waitFor();
    await check(aggregator, 'contracts-documents-carrier-tab');
  });

  it('the input supply contracts: list, search, empty state and a contract’s page', async () => {
    await aggregator.goto(`${server.baseUrl}/contrats/fourniture`);
    await aggregator.getByRole('heading', { name: "Contrats de fourniture d'intrants" }).waitFor();
    const first = aggregator.getByRole('cell', { name: /^FI-\d{6}$/ }).first();
    await first.waitFor();
    const supplyReference = (await first.textContent())!;
    await check(aggregator, 'contracts-documents-supply-list');
    const searchBox = aggregator.getByPlaceholder('Rechercher par référence, fournisseur, engrais');
    await searchBox.fill('aucun-contrat-ne-correspond');
    await aggregator.getByText('Aucun élément trouvé').waitFor();
    await searchBox.fill(supplyReference);
    await aggregator.getByRole('link', { name: `Voir le contrat ${supplyReference}` }).click();
    await aggregator.waitForURL((url) => url.pathname.startsWith('/contrats/fourniture/'));
    await aggregator
      .getByRole('heading', { name: `Contrat de fourniture ${supplyReference}` })
      .waitFor();
    expect(await aggregator.getByTestId('supply-status').textContent()).toBe('Actif');
    await check(aggregator, 'contracts-documents-supply-detail');
  });
});
