import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import {
  browserMissingReason,
  explainFailures,
  launchBrowser,
  launchBrowserWithCamera,
} from './support/browser.js';
import { writeQrVideo } from './support/camera.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { apiToken, signedInPage } from './support/session.js';

const missing = browserMissingReason();
const AGGREGATOR = 'agregateur@demo.filiere.bj';
const PHONE = { viewport: { width: 390, height: 844 } };

/** '1 234 567': the F CFA grouping of the screens (any space). */
const money = (n: number) =>
  new RegExp(`${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '[\\s\\u202f\\u00a0]')}`);

/**
 * The collection centre on a 390 px phone: the aggregator finds a grower by the code on his
 * card, picks his contract ready for delivery, types the weighed kilograms, sees the value,
 * the debts recovered and the net the server computes, confirms once, and gets the receipt —
 * the contract delivered and paid in the same step. Axe-checked at each step.
 */
describe.skipIf(missing !== null)('collection centre in Chromium', { timeout: 300_000 }, () => {
  explainFailures();
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
    // Nothing wider than the phone.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  };

  /**
   * What a thumb cannot hit on the screen and its header: every button, link, field and grade
   * choice narrower or lower than 44 CSS px, as 'name width×height'.
   */
  const smallTargets = (page: Page) =>
    page.evaluate(() =>
      Array.from(
        document.querySelectorAll<HTMLElement>(
          ':is(main, header) :is(button, a[href], input:not([type=radio]), select, textarea, [role=radio], .mantine-SegmentedControl-label)',
        ),
      )
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && box.height > 0)
        .filter(({ box }) => box.width < 44 || box.height < 44)
        .map(
          ({ el, box }) =>
            `${el.getAttribute('aria-label') ?? (el.textContent?.trim() || el.tagName)} ${Math.round(box.width)}×${Math.round(box.height)}`,
        ),
    );

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

  it('prints the grower’s card from his page: the viewer shows it, its bytes a PDF', async () => {
    const growers = await api<{ data: { id: string; reference: string }[] }>('/grower?limit=1');
    const grower = growers.data[0]!;
    // The cluster manager registers growers and hands them their card.
    const page = await signedInPage(
      browser,
      server.baseUrl,
      'gestionnaire@demo.filiere.bj',
      server.password,
      `/producteurs/show/${grower.id}`,
      PHONE,
    );
    await page.getByRole('button', { name: 'Carte producteur (QR)' }).click();
    await page.getByRole('heading', { name: 'Carte du producteur (PDF)' }).waitFor();
    expect(decodeURIComponent(page.url())).toMatch(/\/pdf\/viewer\/\/api\/contracts\/pdf\/g-/);
    await check(page, 'grower-card-viewer-390');
  });

  // Before the weighing below, which pays the demo's one contract ready for delivery.
  it('reads the grower’s card with the phone’s camera and finds his contracts', async () => {
    const ready = await api<{ data: { reference: string; growerId: string }[] }>(
      '/contracts/delivery-contract?filters=ready&limit=100',
    );
    const contract = ready.data[0]!;
    const grower = await api<{ reference: string }>(`/grower/${contract.growerId}`);
    // The card printed from the grower's page holds his code alone in its QR code.
    const video = path.join(mkdtempSync(path.join(os.tmpdir(), 'card-')), 'card.y4m');
    writeQrVideo(video, grower.reference);
    const filming = await launchBrowserWithCamera(video);
    try {
      const page = await signedInPage(
        filming,
        server.baseUrl,
        AGGREGATOR,
        server.password,
        '/centre-de-collecte',
        PHONE,
      );
      await page.getByRole('heading', { name: 'Centre de collecte' }).waitFor();
      await page.getByRole('button', { name: 'Scanner la carte' }).click();
      // The code read closes the scanner, fills the search and runs it.
      await page
        .getByRole('button', { name: `Peser pour le contrat ${contract.reference}` })
        .waitFor();
      expect(await page.getByLabel('Code du producteur ou téléphone').inputValue()).toBe(
        grower.reference,
      );
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      // The camera is released with the scanner.
      await expect
        .poll(() =>
          page.evaluate(() =>
            Array.from(document.querySelectorAll('video')).some((v) => v.srcObject !== null),
          ),
        )
        .toBe(false);
      await check(page, 'collection-scanned-390');
    } finally {
      await filming.close();
    }
  });

  it('finds the grower by code, weighs, shows the net, confirms once and prints the receipt', async () => {
    const ready = await api<{
      data: { id: string; reference: string; growerId: string; amount: number; quantity: string }[];
    }>('/contracts/delivery-contract?filters=ready&limit=100');
    expect(ready.data.length).toBeGreaterThan(0);
    const contract = ready.data[0]!;
    const grower = await api<{ reference: string }>(`/grower/${contract.growerId}`);
    const page = await signedInPage(
      browser,
      server.baseUrl,
      AGGREGATOR,
      server.password,
      '/centre-de-collecte',
      PHONE,
    );
    await page.getByRole('heading', { name: 'Centre de collecte' }).waitFor();
    const code = page.getByLabel('Code du producteur ou téléphone');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    await check(page, 'collection-search-390');
    // One hand at the scale: every target of the screen a thumb can hit (44 px and more).
    expect(await smallTargets(page)).toEqual([]);

    // The card's code, by its digits only.
    await code.fill(String(Number(grower.reference.replace(/\D/g, ''))));
    await page.getByRole('button', { name: 'Rechercher' }).click();
    const pick = page.getByRole('button', { name: `Peser pour le contrat ${contract.reference}` });
    await pick.click();

    // The weighing: kilograms on a numeric keypad, the grade, the figures live.
    const kilograms = page.getByLabel('Poids pesé (kg)');
    expect(await kilograms.getAttribute('inputmode')).toBe('numeric');
    const kg = 1000;
    await kilograms.fill(String(kg));
    await page.getByText('C', { exact: true }).click();
    const [whole, fraction = ''] = contract.quantity.split('.');
    const contractKg = Number(whole) * 1000 + Number((fraction + '000').slice(0, 3));
    const value = Math.floor((kg * contract.amount) / contractKg);
    await page.getByText('Valeur de la livraison').waitFor();
    await page.getByText(money(value)).first().waitFor();
    const confirm = page.getByRole('button', { name: /^Confirmer et payer / });
    await confirm.waitFor();
    await check(page, 'collection-weigh-390');
    expect(await smallTargets(page)).toEqual([]);
    const net = (await confirm.innerText()).replace('Confirmer et payer ', '');

    // The payment's push reaches the screen before its answer (as on a slow network): the
    // answer is held until the push has made the screen refetch what it keeps for the day.
    // From the tap on, the weighing is not previewed again (its contract is settled by then).
    const previews: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/contracts/collection/preview')) previews.push(r.url());
    });
    await page.route('**/api/contracts/collection/weighings', async (route) => {
      const refreshed = page.waitForRequest((r) =>
        r.url().includes('/api/contracts/collection/offline-day'),
      );
      const answer = await route.fetch();
      await refreshed;
      await route.fulfill({ response: answer });
    });
    await confirm.click();
    await page.getByText('Livraison payée').waitFor();
    await page.waitForLoadState('networkidle');
    expect(previews).toEqual([]);
    const receipt = page.getByRole('region', { name: 'Reçu de livraison' });
    await receipt.getByText(contract.reference).waitFor();
    await receipt.getByText(/^1[\s\u202f\u00a0]000 kg$/).waitFor();
    const netLine = receipt.locator('.line', { hasText: 'Net au producteur' });
    expect(await netLine.innerText()).toContain(net);
    await check(page, 'collection-receipt-390');
    expect(await smallTargets(page)).toEqual([]);
    // The receipt prints alone on a 58 mm roll.
    await page.emulateMedia({ media: 'print' });
    const printed = await receipt.boundingBox();
    expect(printed!.width).toBeLessThanOrEqual(Math.ceil((58 / 25.4) * 96));
    await page.emulateMedia({ media: 'screen' });

    // The contract was delivered and paid in that one step.
    const detail = await api<{ status: string; deliveredQuantity: string; growerNet: number }>(
      `/contracts/delivery-contract/${contract.id}`,
    );
    expect(detail.status).toBe('COMPLETED');
    expect(detail.deliveredQuantity).toBe('1');
  });

  it('shows the harvest forecast per week and buying centre, as the API computes it', async () => {
    const forecast = await api<{ data: { centre: string; expectedKg: number }[] }>(
      '/contracts/collection/harvest-forecast?weeks=26',
    );
    const page = await signedInPage(
      browser,
      server.baseUrl,
      AGGREGATOR,
      server.password,
      '/previsions-de-recolte',
      PHONE,
    );
    await page.getByRole('heading', { name: 'Prévisions de récolte' }).waitFor();
    if (forecast.data.length === 0) {
      await page.getByText(/Aucune récolte attendue/).waitFor();
    } else {
      const items = page.getByRole('list', {
        name: 'Prévisions par semaine et par centre d’achat',
      });
      await expect.poll(() => items.getByRole('listitem').count()).toBe(forecast.data.length);
      await page
        .getByRole('img', { name: 'Tonnes attendues par semaine et par centre d’achat' })
        .waitFor();
    }
    await check(page, 'harvest-forecast-390');
  });
});
