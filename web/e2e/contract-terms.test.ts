import { mkdirSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import { browserMissingReason, explainFailures, launchBrowser } from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { apiToken, signedInPage } from './support/session.js';

const missing = browserMissingReason();
const SUPER_ADMIN = 'superadmin@demo.filiere.bj';
const AGGREGATOR = 'agregateur@demo.filiere.bj';
const GROWER = 'producteur@demo.filiere.bj';
const CLAUSE = 'Clause ajoutee par le test';

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
 * The super admin's 'Modèle de contrat': the versions of the delivery contract's clauses, the
 * one in force in full, and the form that publishes the next one (an empty clause refused in
 * French before anything is sent); a contract the aggregator creates afterwards prints the new
 * version and its clause, and its public verification names the version. Axe-checked.
 */
describe.skipIf(missing !== null)(
  'the contract terms editor in Chromium',
  { timeout: 600_000 },
  () => {
    explainFailures();
    let server: E2eServer;
    let browser: Browser;

    const check = async (page: Page, name: string) => {
      await page.waitForLoadState('networkidle');
      await screenshot(page, name);
      expect(await seriousViolations(page), name).toEqual([]);
    };

    beforeAll(async () => {
      mkdirSync(screenshotDir, { recursive: true });
      server = await startE2eServer();
      browser = await launchBrowser();
    }, 600_000);
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    it('publishes a version that a new contract’s PDF prints', async () => {
      const page = await signedInPage(
        browser,
        server.baseUrl,
        SUPER_ADMIN,
        server.password,
        '/contrats/modele',
      );
      await page
        .getByRole('heading', { name: 'Modèle de contrat de livraison', level: 1 })
        .waitFor();
      const versions = page.getByRole('table', { name: 'Versions des clauses' });
      await versions.getByText('En vigueur').waitFor();
      const current = Number(
        (
          (await page.getByRole('heading', { name: /^Clauses en vigueur/ }).textContent()) ?? ''
        ).match(/version (\d+)/)![1],
      );
      await check(page, 'contract-terms');

      // An empty clause is refused in French, nothing sent.
      await page.getByRole('button', { name: 'Ajouter une clause' }).click();
      await page.getByRole('button', { name: 'Publier' }).click();
      await page.getByText('Donnez un titre à chaque clause').first().waitFor();

      const form = page.getByRole('form', { name: `Publier la version ${current + 1}` });
      const titles = form.getByRole('textbox', { name: /^Titre de la clause/ });
      const n = await titles.count();
      await form
        .getByRole('textbox', { name: `Titre de la clause ${n}`, exact: true })
        .fill(CLAUSE);
      await form
        .getByRole('textbox', { name: `Texte de la clause ${n}`, exact: true })
        .fill('Le contrat {reference} porte sur {quantite} kg.');
      await page.getByRole('button', { name: 'Publier' }).click();
      await page.getByText(`Version ${current + 1} publiée`).waitFor();
      await page
        .getByRole('heading', { name: `Clauses en vigueur (version ${current + 1})` })
        .waitFor();
      await versions.getByText(`Version ${current + 1}`).waitFor();
      await check(page, 'contract-terms-published');

      // A contract created now prints that version and the new clause, filled in.
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
      const growerId =
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
          name: 'Parcelle du modèle',
          area_sown: '1',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const token = await apiToken(server.baseUrl, AGGREGATOR, server.password);
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${server.baseUrl}/api${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, string> };
      };
      const created = await call('POST', '/contracts/delivery-contract', {
        growerId,
        productId: plot.id,
        quantity: 1,
        amount: 10_000,
      });
      expect(created.status).toBe(201);
      const { contractId, reference } = created.body;
      // The link is given once the contract's read model holds it (projected after the commit).
      await expect
        .poll(async () => (await call('GET', `/contracts/smarts-download/${contractId}`)).status)
        .toBe(200);
      const download = await call('GET', `/contracts/smarts-download/${contractId}`);
      const pdf = Buffer.from(
        await (await fetch(`${server.baseUrl}${download.body.url}`)).arrayBuffer(),
      );
      const printed = pdfText(pdf).replace(/\s+/g, '');
      expect(printed).toContain(`version${current + 1}`);
      expect(printed).toContain(CLAUSE.replace(/\s+/g, ''));
      expect(printed).toContain(`Lecontrat${reference}portesur`);
      const ref = printed.match(/\/verifier\/([0-9a-z]{20})/)![1];
      const verified = await fetch(`${server.baseUrl}/api/verifier/${ref}`);
      expect(((await verified.json()) as { termsVersion: number }).termsVersion).toBe(current + 1);
      await page.context().close();
    });
  },
);
