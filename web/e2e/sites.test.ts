import { mkdirSync } from 'node:fs';
import { OpenLocationCode } from 'open-location-code';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const plusCode = (latitude: number, longitude: number) =>
  new (
    OpenLocationCode as unknown as new () => {
      encode(lat: number, lng: number, length: number): string;
    }
  )().encode(latitude, longitude, 10);
const decimals = (value: string) => (value.split('.')[1] ?? '').length;

/**
 * Stores, places and coverage zones, offline: the browser reaches nothing
 * but the test server, so the configured OpenStreetMap tiles and Nominatim fail and the
 * bundled country outlines draw the map while the plus code, computed in the browser, is the
 * address, and the suggestions come from the locations reference data. The demo aggregator
 * adds a store by clicking the map, edits and deletes it; adds a
 * coverage zone of 3 points and gets 'Ce point a deja été choisit' for a repeated point.
 * Every screen axe-checked.
 */
describe.skipIf(missing !== null)('stores and zones in Chromium', { timeout: 240_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  /** The overlay's map, once the bundled style has replaced the unreachable tiles. */
  const offlineMap = async (page: Page) => {
    const map = page.locator('[data-testid="site-map"][data-loaded="offline"]');
    await map.waitFor();
    expect(await map.getAttribute('data-style')).toBe('offline');
    const canvas = map.locator('canvas.maplibregl-canvas');
    await canvas.waitFor();
    const box = (await canvas.boundingBox())!;
    expect(box.width).toBeGreaterThan(200);
    expect(box.height).toBeGreaterThan(200);
    return canvas;
  };

  it('the aggregator adds a store by clicking the offline map, edits it and deletes it', async () => {
    // Signed in through the API (the login form is identity.test.ts's subject).
    const page = await signedInPage(
      browser,
      server.baseUrl,
      'agregateur@demo.filiere.bj',
      server.password,
      '/industriel/mes-magasins',
    );
    await page.getByRole('heading', { name: 'Magasins' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    await nav.getByRole('link', { name: 'Magasins' }).waitFor();
    // The demo's two stores.
    await page.getByRole('cell', { name: 'Magasin central d’Allada', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'Entrepôt de Cotonou', exact: true }).waitFor();
    await check(page, 'stores-list');

    await page.getByRole('button', { name: 'Ajouter un magasin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un lieu' });
    await dialog.waitFor();
    const submit = dialog.getByRole('button', { name: 'Ajouter', exact: true });
    expect(await submit.isEnabled()).toBe(false);
    const canvas = await offlineMap(page);
    await dialog.getByLabel(/^Nom de l'emplacement/).fill('Magasin de Sékou');
    // Still no point: the form is not valid.
    expect(await submit.isEnabled()).toBe(false);

    // Address suggestions: the geocoder is unreachable, the locations reference data answers.
    const address = dialog.getByLabel(/^Adresse/);
    await address.fill('acclohou');
    await page.getByRole('option', { name: 'ACCLOHOUE, AGBANOU, ALLADA, ATLANTIQUE' }).click();
    await expect.poll(() => address.inputValue()).toBe('ACCLOHOUE, AGBANOU, ALLADA, ATLANTIQUE');
    // A place of the reference data has no coordinates: the form says so and sets none; the
    // map moves to its commune (Allada, 6.65, 2.15 in the bundled positions).
    const unplaced = dialog
      .getByRole('status')
      .getByText("Ce lieu n'a pas de coordonnées : placez le point sur la carte.");
    await unplaced.waitFor();
    expect(await dialog.getByLabel(/^Latitude/).inputValue()).toBe('');
    expect(await submit.isEnabled()).toBe(false);

    await canvas.click({ position: { x: 180, y: 140 } });
    const latitude = dialog.getByLabel(/^Latitude/);
    const longitude = dialog.getByLabel(/^Longitude/);
    await expect.poll(() => latitude.inputValue()).not.toBe('');
    const lat = await latitude.inputValue();
    const lng = await longitude.inputValue();
    expect(decimals(lat)).toBeLessThanOrEqual(7);
    expect(decimals(lng)).toBeLessThanOrEqual(7);
    // Near Allada, where the suggestion moved the map (zoom 12): a few km at most.
    expect(Math.abs(Number(lat) - 6.65)).toBeLessThan(0.1);
    expect(Math.abs(Number(lng) - 2.15)).toBeLessThan(0.1);
    await unplaced.waitFor({ state: 'detached' });
    // The address is the point's plus code (no geocoder reachable).
    await expect.poll(() => address.inputValue()).toBe(plusCode(Number(lat), Number(lng)));
    await dialog.locator('[data-testid="site-marker"]').waitFor();
    await check(page, 'place-form');

    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page.getByText('lieu sélectioné avec succès').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row', { name: /Magasin de Sékou/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(plusCode(Number(lat), Number(lng)));
    const saved = await server.db.db
      .selectFrom('user_sites')
      .select(['latitude', 'longitude'])
      .where('label', '=', 'Magasin de Sékou')
      .executeTakeFirstOrThrow();
    expect(Number(saved.latitude)).toBe(Number(lat));
    expect(Number(saved.longitude)).toBe(Number(lng));

    // Edit (MOD): the form opens with the store's values.
    await page.getByRole('button', { name: 'Modifier le magasin Magasin de Sékou' }).click();
    const edit = page.getByRole('dialog', { name: 'Modifier un lieu' });
    await edit.waitFor();
    expect(await edit.getByLabel(/^Latitude/).inputValue()).toBe(lat);
    await offlineMap(page);
    await edit.getByLabel(/^Nom de l'emplacement/).fill('Magasin de Sékou centre');
    await edit.getByRole('button', { name: 'Modifier', exact: true }).click();
    await page.getByText('lieu modifiée').first().waitFor();
    await page.getByRole('row', { name: /Magasin de Sékou centre/ }).waitFor();

    // Delete, after the confirmation.
    await page
      .getByRole('button', { name: 'Supprimer le magasin Magasin de Sékou centre' })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Supprimer le magasin' });
    await confirm.getByText(/Êtes-vous sûr de vouloir supprimer le magasin/).waitFor();
    await confirm.getByRole('button', { name: 'Oui, supprimer' }).click();
    await page.getByText('Magasin supprimé avec succès').first().waitFor();
    await page.getByRole('row', { name: /Magasin de Sékou/ }).waitFor({ state: 'detached' });

    // Coverage zones: three points, and a repeated one ignored.
    await nav.getByRole('link', { name: 'Zones de couverture' }).click();
    await page.waitForURL((url) => url.pathname === '/industriel/zones-de-couverture');
    await page.getByRole('cell', { name: 'Bassin ananas Allada – Zè', exact: true }).waitFor();
    await check(page, 'zones-list');
    await page.getByRole('button', { name: 'Ajouter une zone de couverture' }).click();
    const zone = page.getByRole('dialog', { name: 'Ajouter une zone de couverture' });
    await zone.waitFor();
    const zoneCanvas = await offlineMap(page);
    await zone.getByLabel(/^Nom de la zone/).fill('Zone de Sékou');
    const save = zone.getByRole('button', { name: 'Ajouter', exact: true });
    const status = zone.getByTestId('zone-status');
    for (const [i, position] of [
      { x: 150, y: 120 },
      { x: 320, y: 140 },
    ].entries()) {
      await zoneCanvas.click({ position });
      await expect.poll(() => status.textContent()).toContain(`${2 - i} point`);
    }
    expect(await save.isEnabled()).toBe(false);
    await zoneCanvas.click({ position: { x: 240, y: 280 } });
    await expect.poll(() => status.textContent()).toBe('3 points choisis');
    // The first point again: ignored.
    await zoneCanvas.click({ position: { x: 150, y: 120 } });
    await expect.poll(() => status.textContent()).toBe('Ce point a deja été choisit');
    expect(
      await zone.getByRole('list', { name: 'Points de la zone' }).getByRole('listitem').count(),
    ).toBe(3);
    await check(page, 'zone-form');
    await expect.poll(() => save.isEnabled()).toBe(true);
    await save.click();
    await page.getByText('Zone de couverture ajoutée avec succès').first().waitFor();
    const zoneRow = page.getByRole('row', { name: /Zone de Sékou/ });
    await zoneRow.waitFor();
    expect(await zoneRow.textContent()).toContain('3 points');
  });

  it('a suggestion of the geocoder moves the marker and the map, and is saved', async () => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      'agregateur@demo.filiere.bj',
      server.password,
      '/industriel/mes-magasins',
    );
    // A stand-in for the configured Nominatim (GEOCODER_URL's default), answering like it.
    const searched: string[] = [];
    await page.route('https://nominatim.openstreetmap.org/**', async (route) => {
      const url = new URL(route.request().url());
      const headers = { 'access-control-allow-origin': '*' };
      if (url.pathname === '/search') {
        searched.push(url.searchParams.get('q') ?? '');
        return route.fulfill({
          headers,
          json: [
            {
              display_name: 'Allada, Atlantique, Bénin',
              lat: '6.66548215',
              lon: '2.15137094',
            },
            {
              display_name: 'Allada Centre, Allada, Atlantique, Bénin',
              lat: '6.6601',
              lon: '2.1502',
            },
          ],
        });
      }
      return route.fulfill({ headers, json: { display_name: 'Allada, Atlantique, Bénin' } });
    });
    await page.getByRole('heading', { name: 'Magasins' }).waitFor();
    await page.getByRole('button', { name: 'Ajouter un magasin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un lieu' });
    await dialog.waitFor();
    const canvas = await offlineMap(page);
    await dialog.getByLabel(/^Nom de l'emplacement/).fill('Magasin d’Allada nord');
    const latitude = dialog.getByLabel(/^Latitude/);
    const longitude = dialog.getByLabel(/^Longitude/);
    // A first point near the default centre (Cotonou), as a user clicking before typing.
    await canvas.click({ position: { x: 180, y: 140 } });
    await expect.poll(() => latitude.inputValue()).not.toBe('');
    expect(Math.abs(Number(await latitude.inputValue()) - 6.37)).toBeLessThan(0.1);

    const address = dialog.getByLabel(/^Adresse/);
    await address.fill('Allada');
    await page.getByRole('option', { name: 'Allada, Atlantique, Bénin', exact: true }).click();
    expect(searched).toContain('Allada');
    // The suggestion's point, rounded to 7 decimals, in the fields and under the marker.
    await expect.poll(() => latitude.inputValue()).toBe('6.6654822');
    await expect.poll(() => longitude.inputValue()).toBe('2.1513709');
    expect(await address.inputValue()).toBe('Allada, Atlantique, Bénin');
    const marker = dialog.locator('[data-testid="site-marker"]');
    const mapBox = (await canvas.boundingBox())!;
    // The map is centred on the chosen place, and the marker's tip with it.
    const offCentre = async () => {
      const box = (await marker.boundingBox())!;
      return [
        Math.abs(box.x + box.width / 2 - (mapBox.x + mapBox.width / 2)) < 3,
        Math.abs(box.y + box.height - (mapBox.y + mapBox.height / 2)) < 20,
      ];
    };
    await expect.poll(offCentre).toEqual([true, true]);
    const submit = dialog.getByRole('button', { name: 'Ajouter', exact: true });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page.getByText('lieu sélectioné avec succès').first().waitFor();
    const saved = await server.db.db
      .selectFrom('user_sites')
      .select(['latitude', 'longitude', 'address'])
      .where('label', '=', 'Magasin d’Allada nord')
      .executeTakeFirstOrThrow();
    expect([Number(saved.latitude), Number(saved.longitude), saved.address]).toEqual([
      6.6654822,
      2.1513709,
      'Allada, Atlantique, Bénin',
    ]);
  });

  it('the offline map names the communes, and the departments once zoomed out', async () => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      'agregateur@demo.filiere.bj',
      server.password,
      '/industriel/mes-magasins',
    );
    await page.getByRole('button', { name: 'Ajouter un magasin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un lieu' });
    await dialog.waitFor();
    await offlineMap(page);
    const name = (text: string) =>
      dialog.getByTestId('map-label').filter({ hasText: new RegExp(`^${text}$`) });
    // Zoom 12 on Cotonou: the communes' names, as the reference data spells them.
    await name('COTONOU').waitFor();
    await name('SEME-PODJI').waitFor();
    expect(await name('LITTORAL').isVisible()).toBe(false);
    expect(await dialog.getByTestId('map-label').count()).toBe(12 + 77);
    await check(page, 'offline-map-communes');
    const zoomOut = dialog.getByRole('button', { name: 'Zoom arrière' });
    // Zoomed out below 9 (a click at a time until it shows): the departments' names instead.
    await expect
      .poll(async () => {
        await zoomOut.click();
        return name('LITTORAL').isVisible();
      })
      .toBe(true);
    for (const department of ['LITTORAL', 'ATLANTIQUE', 'OUEME', 'MONO']) {
      await name(department).waitFor();
    }
    await name('COTONOU').waitFor({ state: 'hidden' });
    await check(page, 'offline-map-departments');
  });
});
