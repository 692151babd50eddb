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
import { apiToken, signedInPage } from './support/session.js';

const missing = browserMissingReason();
const AGGREGATOR = 'agregateur@demo.filiere.bj';

interface Breakdown {
  inputAdvances: number;
  pineappleAdvances: number;
  socialFinancing: number;
  growerNet: number;
}

/** '1 234 567': the F CFA grouping of the screens. */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/**
 * Running contracts on the demo: the aggregator finds the contracts ready
 * to run under 'Livraison disponible' (counted in the filter and above the list), with the
 * grower and French dates on each row, runs them all with one action, and reads where each
 * contract's money went (advances kept, SFD repaid, net paid) in the run's result and on the
 * contract's page. Axe-checked.
 */
describe.skipIf(missing !== null)('running contracts in Chromium', { timeout: 300_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let token = '';

  const api = async <T>(path: string): Promise<T> => {
    const answer = await fetch(`${server.baseUrl}/api${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status, path).toBe(200);
    return (await answer.json()) as T;
  };
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page)).toEqual([]);
  };

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
    token = await apiToken(server.baseUrl, AGGREGATOR, server.password);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('finds the delivered contracts, runs them all and breaks their recoveries down', async () => {
    const ready = await api<{ count: number; data: { id: string; reference: string }[] }>(
      '/contracts/delivery-contract?filters=delivered&limit=100',
    );
    // The demo's aggregator has delivered contracts waiting to be run.
    expect(ready.count).toBeGreaterThan(0);
    const page = await signedInPage(
      browser,
      server.baseUrl,
      AGGREGATOR,
      server.password,
      '/contrats/livraison',
    );
    const box = page.getByTestId('ready-to-run');
    await box.getByText(`${ready.count} contrat(s) livré(s) prêt(s) à exécuter`).waitFor();

    // The filter offers them with their count.
    await page.getByRole('combobox', { name: 'Filtrer par statut' }).click();
    await page
      .getByRole('option', { name: `Livraison disponible (${ready.count})`, exact: true })
      .click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'delivered');
    const rows = page.getByRole('row').filter({ has: page.getByRole('cell', { name: /^LIV-/ }) });
    await expect.poll(() => rows.count()).toBe(ready.count);
    // Every row: the grower's name, a French delivery date, 'Livraison disponible'.
    const headers = await page.getByRole('columnheader').allInnerTexts();
    expect(headers).toEqual(expect.arrayContaining(['Producteur', 'Date de livraison']));
    const growerColumn = headers.indexOf('Producteur');
    const dateColumn = headers.indexOf('Date de livraison');
    for (let i = 0; i < ready.count; i++) {
      const cells = await rows.nth(i).getByRole('cell').allInnerTexts();
      expect(cells[growerColumn]).toMatch(/^\p{L}[\p{L}' -]+ \p{L}[\p{L}' -]+$/u);
      expect(cells[dateColumn]).toMatch(
        /^\d{1,2} (janv\.|févr\.|mars|avr\.|mai|juin|juil\.|août|sept\.|oct\.|nov\.|déc\.) \d{4}$/u,
      );
      expect(cells.join(' ')).toContain('Livraison disponible');
    }
    await check(page, 'contracts-run-ready');

    // One action runs them all, after the irreversible warning.
    await box
      .getByRole('button', { name: `Exécuter les contrats livrés (${ready.count})` })
      .click();
    const warning = page.getByRole('dialog', { name: 'Action irrécersible' });
    await warning.getByText(`exécuter ${ready.count} contrat(s)`).waitFor();
    await check(page, 'contracts-run-warning');
    // The runs' loop, as the API runs it outside tests (NODE_ENV=test leaves it off).
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
    const progress = page.getByTestId('run-progress');
    await progress.waitFor();
    await expect.poll(() => progress.getAttribute('data-finished')).toBe('true');
    const runId = new URL(page.url()).searchParams.get('run')!;
    const run = await api<{
      items: { contractId: string; reference: string; status: string; breakdown: Breakdown }[];
    }>(`/contracts/runs/${runId}`);
    expect(run.items.map((i) => i.contractId).sort()).toEqual(ready.data.map((c) => c.id).sort());
    // Each contract of the run says where its money went, as the server recorded it.
    for (const item of run.items) {
      expect(item.status).toBe('COMPLETED');
      const b = item.breakdown;
      await progress
        .getByText(
          `Contrat ${item.reference} : Terminé — avances sur intrants retenues ${grouped(b.inputAdvances)} FCFA, ` +
            `avances sur ananas retenues ${grouped(b.pineappleAdvances)} FCFA, remboursé au SFD ` +
            `${grouped(b.socialFinancing)} FCFA, net versé ${grouped(b.growerNet)} FCFA`,
          { exact: true },
        )
        .waitFor();
    }
    // Nothing is left to run: the box goes, live.
    await expect.poll(() => box.count()).toBe(0);
    await check(page, 'contracts-run-done');

    // The contract's page breaks its settlement down the same way.
    const first = run.items[0]!;
    await page.goto(`${server.baseUrl}/contrats/livraison/show/${first.contractId}`);
    const money = (n: number) => `${grouped(n)} FCFA`;
    await expect
      .poll(() => page.getByTestId('kept-input-advances').textContent())
      .toBe(money(first.breakdown.inputAdvances));
    expect(await page.getByTestId('kept-pineapple-advances').textContent()).toBe(
      money(first.breakdown.pineappleAdvances),
    );
    expect(await page.getByTestId('repaid-sfd').textContent()).toBe(
      money(first.breakdown.socialFinancing),
    );
    expect(await page.getByTestId('grower-net').textContent()).toBe(
      money(first.breakdown.growerNet),
    );
    await page.getByText("Avances sur intrants retenues par l'agrégateur").waitFor();
    await check(page, 'contracts-run-detail');
    await page.context().close();
  });
});
