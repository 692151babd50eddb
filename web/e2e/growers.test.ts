import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Locator, Page } from 'playwright-core';
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

/** What zod says in English when nobody translated it: must never reach the page. */
const ZOD_ENGLISH = /Invalid input|expected string|received number/;

/** The grower this test registers (a phone no demo account holds). */
const GROWER = {
  lastname: 'Tossou',
  firstname: 'Mahougnon Clarisse',
  phone: '0166917342',
  name: 'Mahougnon Clarisse Tossou',
};

/**
 * Producteurs: the cluster manager registers a grower with two
 * plots through the form (cascading location selects, momo pre-filled from the phone with its
 * operator), finds it in the list, opens it, adds a plot and resets its PIN; the super admin
 * bans it (confirmed), finds it under 'Bannis' and reinstates it; the growers list downloads
 * as an .xlsx read back with exceljs. Every screen axe-checked.
 */
describe.skipIf(missing !== null)('growers in Chromium', { timeout: 240_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let growerId = '';

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
  const signIn = async (email: string): Promise<Page> => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      email,
      server.password,
      '/producteurs',
    );
    await page.getByRole('heading', { name: 'Producteurs' }).waitFor();
    return page;
  };

  /** axe: no serious or critical violation; and a screenshot for review. */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  /** Opens a Mantine select and clicks an option: by name, or the first one offered. */
  const choose = async (select: Locator, option?: string) => {
    const page = select.page();
    await expect.poll(() => select.isEnabled()).toBe(true);
    await select.click();
    const listbox = page.getByRole('listbox').last();
    const target = option
      ? listbox.getByRole('option', { name: option, exact: true })
      : listbox.getByRole('option').first();
    await target.click();
  };

  /** The four levels of a location cascade inside `scope`. */
  const place = async (scope: Locator, department: string, commune: string) => {
    await choose(scope.getByTestId('location-department'), department);
    await choose(scope.getByTestId('location-commune'), commune);
    await choose(scope.getByTestId('location-arrondissement'));
    await choose(scope.getByTestId('location-village'));
  };

  const fillPlot = async (
    scope: Locator,
    plot: { type: string; name: string; lon: string; lat: string; area: string; estimate: string },
  ) => {
    await choose(scope.getByLabel(/^Type d'ananas/), plot.type);
    await scope.getByLabel(/^Nom de la parcelle/).fill(plot.name);
    await place(scope, 'ATLANTIQUE', 'ALLADA');
    await scope.getByLabel(/^Longitude/).fill(plot.lon);
    await scope.getByLabel(/^Latitude/).fill(plot.lat);
    await scope.getByLabel(/^Superficie emblavée/).fill(plot.area);
    await scope.getByLabel(/^Production estimée/).fill(plot.estimate);
  };

  /** Types a search and waits for it in the address (the box reports after a pause). */
  const search = async (page: Page, q: string) => {
    await page.getByRole('searchbox', { name: 'Rechercher' }).first().fill(q);
    await page.waitForURL((url) => url.searchParams.get('q') === q);
  };

  it('the cluster manager registers a grower with two plots, finds it, adds a plot and resets its PIN', async () => {
    const page = await signIn('gestionnaire@demo.filiere.bj');
    await check(page, 'growers-list');
    // The cluster manager registers growers; the menu's Acteurs group lists Producteurs.
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    await nav.getByRole('link', { name: 'Producteurs' }).waitFor();

    await page.getByRole('link', { name: 'Ajouter un producteur' }).click();
    await page.waitForURL((url) => url.pathname === '/producteurs/create');
    await page.getByRole('heading', { name: 'Ajouter un producteur' }).waitFor();
    // One screen without the navigation bar.
    expect(await page.getByRole('navigation', { name: 'Menu principal' }).count()).toBe(0);
    const submit = page.getByRole('button', { name: 'Ajouter le producteur' });
    expect(await submit.isEnabled()).toBe(false);

    const personal = page.getByRole('region', { name: 'Informations personnelles' });
    // Validation on input, in French (spec §5).
    const lastname = personal.getByLabel(/^Nom/).first();
    await lastname.fill('x');
    await lastname.fill('');
    await personal.getByText('Ce champ est obligatoire').first().waitFor();
    const phone = personal.getByLabel(/^Téléphone/).first();
    await phone.fill('12a34');
    expect(await phone.inputValue()).toBe('1234');
    await personal
      .getByText('Numéro de téléphone invalide (8 chiffres, ou 10 chiffres commençant par 01)')
      .waitFor();

    await lastname.fill(GROWER.lastname);
    await personal.getByLabel(/^Prénoms/).fill(GROWER.firstname);
    await phone.fill(GROWER.phone);
    await personal.getByLabel(/^NIP/).fill('2045781236');
    await place(personal, 'ATLANTIQUE', 'ALLADA');
    await choose(personal.getByLabel(/^Coopérative/), 'Aucune coopérative');

    const first = page.getByRole('group', { name: 'Parcelle 1' });
    await fillPlot(first, {
      type: 'Cayenne lisse',
      name: 'Champ de Sékou',
      lon: '2.1512345',
      lat: '6.6654321',
      area: '1.5',
      estimate: '45',
    });
    // A sown area of 0 is refused.
    const area = first.getByLabel(/^Superficie emblavée/);
    await area.fill('0');
    await first.getByText('Entré non valide').waitFor();
    await area.fill('1.5');

    await page.getByRole('button', { name: 'Ajouter une parcelle' }).click();
    const second = page.getByRole('group', { name: 'Parcelle 2' });
    await fillPlot(second, {
      type: 'Pain de sucre',
      name: 'Parcelle de Togoudo',
      lon: '2.1498765',
      lat: '6.6701234',
      area: '2',
      estimate: '50',
    });

    // Mobile money pre-filled from the phone, its operator shown from the number.
    const payout = page.getByRole('region', { name: 'Compte de reversement' });
    expect(await payout.getByLabel(/^Numéro mobile money/).inputValue()).toBe(GROWER.phone);
    await payout.getByText('Opérateur : MTN').waitFor();

    await expect.poll(() => submit.isEnabled(), { message: "'Ajouter' enabled" }).toBe(true);
    expect(await page.locator('body').textContent()).not.toMatch(ZOD_ENGLISH);
    await check(page, 'growers-create');
    await submit.click();
    await page.getByText('Producteur ajouté avec succès !').first().waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/producteurs/show/'));
    growerId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { name: GROWER.name }).waitFor();

    // The same phone a second time: 409, said in French on the phone field.
    await page.goto(`${server.baseUrl}/producteurs/create`);
    const again = page.getByRole('region', { name: 'Informations personnelles' });
    await again.getByLabel(/^Nom/).first().fill('Doublon');
    await again.getByLabel(/^Prénoms/).fill('Test');
    await again
      .getByLabel(/^Téléphone/)
      .first()
      .fill(GROWER.phone);
    await place(again, 'ATLANTIQUE', 'ALLADA');
    await choose(again.getByLabel(/^Coopérative/), 'Aucune coopérative');
    await fillPlot(page.getByRole('group', { name: 'Parcelle 1' }), {
      type: 'Cayenne lisse',
      name: 'Doublon',
      lon: '2.15',
      lat: '6.66',
      area: '1',
      estimate: '',
    });
    await page.getByRole('button', { name: 'Ajouter le producteur' }).click();
    await page.getByText('Ce numéro de téléphone est déjà utilisé').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/producteurs/create');

    // Found in the list, with its plots' total sown area.
    await page.goto(`${server.baseUrl}/producteurs`);
    await search(page, GROWER.lastname);
    const row = page.getByRole('row').filter({ hasText: GROWER.firstname });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('3,5');
    await row.getByRole('link', { name: `Voir ${GROWER.name}` }).click();
    await page.waitForURL((url) => url.pathname === `/producteurs/show/${growerId}`);

    // The detail: two plots, the contracts list (empty until contracts exist).
    const plots = page.getByRole('region', { name: /^Parcelles/ });
    await plots.getByRole('cell', { name: 'Champ de Sékou', exact: true }).waitFor();
    await plots.getByRole('cell', { name: 'Parcelle de Togoudo', exact: true }).waitFor();
    const contracts = page.getByRole('region', { name: 'Contrats' });
    await contracts.getByText('Aucun élément trouvé').waitFor();
    await check(page, 'growers-detail');

    await plots.getByRole('button', { name: 'Ajouter une parcelle' }).click();
    const modal = page.getByRole('dialog', { name: 'Ajouter une parcelle' });
    await fillPlot(modal, {
      type: 'Cayenne lisse',
      name: 'Parcelle du marigot',
      lon: '2.1601234',
      lat: '6.6598765',
      area: '0.75',
      estimate: '20',
    });
    const save = modal.getByRole('button', { name: 'Enregistrer' });
    await expect.poll(() => save.isEnabled()).toBe(true);
    await check(page, 'growers-add-plot');
    await save.click();
    await page.getByText('Champ ajouté avec succès').first().waitFor();
    await plots.getByRole('cell', { name: 'Parcelle du marigot', exact: true }).waitFor();
    await plots.getByRole('heading', { name: 'Parcelles (4,25 ha)' }).waitFor();

    // Reset the PIN: asked first (cancelling sends nothing), then the server's message.
    await page.getByRole('button', { name: 'Réinitialiser le code PIN' }).click();
    const pinDialog = page.getByRole('dialog', { name: 'Réinitialiser le code PIN ?' });
    await pinDialog.getByText(/Un nouveau code PIN sera envoyé par SMS à/).waitFor();
    await check(page, 'growers-reset-pin');
    await pinDialog.getByRole('button', { name: 'Annuler' }).click();
    await pinDialog.waitFor({ state: 'hidden' });
    expect(await page.getByText('Le nouveau code PIN a été envoyé par SMS').count()).toBe(0);
    await page.getByRole('button', { name: 'Réinitialiser le code PIN' }).click();
    await pinDialog.getByRole('button', { name: 'Oui, réinitialiser' }).click();
    await page.getByText('Le nouveau code PIN a été envoyé par SMS').first().waitFor();
    await pinDialog.waitFor({ state: 'hidden' });
    // The cluster manager does not ban.
    expect(await page.getByRole('button', { name: 'Bannir' }).count()).toBe(0);

    // 'Modifier un producteur': personal information; the payout account read-only. The
    // toast (top right) goes first: closed by its button rather than waited out (4 s).
    await page
      .getByRole('alert')
      .filter({ hasText: 'Le nouveau code PIN a été envoyé par SMS' })
      .getByRole('button', { name: 'Fermer' })
      .click();
    await page.getByText('Le nouveau code PIN a été envoyé par SMS').waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Modifier', exact: true }).click();
    await page.getByRole('heading', { name: 'Modifier un producteur' }).waitFor();
    const edit = page.getByRole('region', { name: 'Informations personnelles' });
    await expect.poll(() => edit.getByLabel(/^Nom/).first().inputValue()).toBe(GROWER.lastname);
    expect(await edit.getByTestId('location-village').inputValue()).not.toBe('');
    const editPayout = page.getByRole('region', { name: 'Compte de reversement' });
    await editPayout.getByText(/ne se modifie que par une demande de changement/).waitFor();
    expect(await editPayout.getByRole('textbox').count()).toBe(0);
    await edit.getByLabel(/^E-mail/).fill('clarisse.tossou@exemple.bj');
    const saveEdit = page.getByRole('button', { name: 'Enregistrer' });
    await expect.poll(() => saveEdit.isEnabled()).toBe(true);
    await check(page, 'growers-edit');
    await saveEdit.click();
    await page.getByText('Mise à jour effectuée avec succès').first().waitFor();
    await page.waitForURL((url) => url.pathname === `/producteurs/show/${growerId}`);
    await page.getByText('clarisse.tossou@exemple.bj').waitFor();
    await page.close();
  });

  it('the cooperative sees its growers without the cooperative column and cannot add', async () => {
    // The demo's Allada cooperative: its growers, the demo grower account among them.
    const page = await signIn('cooperative@demo.filiere.bj');
    await page.getByRole('columnheader', { name: 'Nom', exact: true }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Coopérative' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Ajouter un producteur' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(1);
    await check(page, 'growers-cooperative');
    await search(page, 'Ahouandjinou');
    await page.getByRole('row').filter({ hasText: 'Basile' }).first().waitFor();
    // Its own growers only: not the grower registered without cooperative (found by phone).
    await search(page, GROWER.phone);
    await page.getByText('Aucun élément trouvé').waitFor();
    await page.goto(`${server.baseUrl}/producteurs/create`);
    await page.waitForURL((url) => url.pathname === '/producteurs');
    await page.close();
  });

  it('the cooperative confirms the contract waiting for one of its growers', async () => {
    // The demo's contract made today for producteur@, a grower of the Allada cooperative.
    const pending = await server.db.db
      .selectFrom('delivery_contracts as dc')
      .innerJoin('growers as g', 'g.id', 'dc.grower_id')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select(['dc.id', 'dc.reference'])
      .where('u.email', '=', 'producteur@demo.filiere.bj')
      .where('dc.status', '=', 'PENDING')
      .executeTakeFirstOrThrow();
    const page = await signIn('cooperative@demo.filiere.bj');
    await page.goto(`${server.baseUrl}/contrats/livraison/show/${pending.id}`);
    await page
      .getByRole('heading', { name: `Contrat de livraison ${pending.reference}` })
      .waitFor();
    // A new code to the grower (the one of the offer may be lost): the old one stops working.
    await page.getByRole('button', { name: 'Renvoyer le code' }).click();
    await page
      .getByText(/^Un nouveau code a été envoyé au /)
      .first()
      .waitFor();
    // The grower gives the cooperative the code he received by SMS.
    const offer = await server.db.db
      .selectFrom('sms_outbox')
      .select('text')
      .where('text', 'like', `%${pending.reference}%`)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const code = /code (\d{6})$/.exec(offer.text)![1]!;
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await page.getByRole('dialog').getByLabel('Code reçu par le producteur').fill(code);
    await page.getByRole('dialog').getByRole('button', { name: 'Confirmer' }).click();
    await expect
      .poll(() => page.getByTestId('contract-status').textContent())
      .toBe('prêt pour la livraison');
    await check(page, 'growers-cooperative-confirms');
    await page.close();
  });

  it('the super admin bans the grower (confirmed) and reinstates it; no PIN reset for it', async () => {
    expect(growerId).not.toBe('');
    // The cluster manager keeps the list open: pushes refresh it, no reload.
    const watcher = await signIn('gestionnaire@demo.filiere.bj');
    await search(watcher, GROWER.lastname);
    const watched = watcher.getByRole('row').filter({ hasText: GROWER.firstname });
    await expect.poll(() => watched.count()).toBe(1);

    const page = await signIn('superadmin@demo.filiere.bj');
    await search(page, GROWER.lastname);
    const row = page.getByRole('row').filter({ hasText: GROWER.firstname });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: `Bannir ${GROWER.name}` }).click();
    const ban = page.getByRole('dialog', { name: 'Bannir un producteur' });
    await ban.getByText(/pourra être réintégré plus tard/).waitFor();
    await check(page, 'growers-ban-confirm');
    await ban.getByRole('button', { name: 'Oui, bannir' }).click();
    await page.getByText('Producteur banni avec succès').first().waitFor();
    await expect.poll(() => row.count()).toBe(0);
    await expect.poll(() => watched.count(), { message: 'pushed to the cluster' }).toBe(0);

    // Under 'Bannis', with 'Réintégrer'.
    await page.getByRole('combobox', { name: 'Filtrer par statut' }).click();
    await page.getByRole('option', { name: 'Bannis', exact: true }).click();
    await expect.poll(() => row.count()).toBe(1);
    await row.getByText('Banni', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Réintégrer ${GROWER.name}` }).click();
    const back = page.getByRole('dialog', { name: 'Réintégrer un producteur' });
    await back.getByRole('button', { name: 'Oui, réintégrer' }).click();
    await page.getByText('Producteur réintégré avec succès').first().waitFor();
    await expect.poll(() => row.count()).toBe(0);
    await expect.poll(() => watched.count(), { message: 'pushed to the cluster' }).toBe(1);
    await watcher.close();

    await page.goto(`${server.baseUrl}/producteurs/show/${growerId}`);
    await page.getByRole('heading', { name: GROWER.name }).waitFor();
    await page.getByText('Actif', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Réinitialiser le code PIN' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Bannir' }).waitFor();
    await page.close();
  });

  it('downloads the growers list as an .xlsx that holds the grower', async () => {
    const page = await signIn('gestionnaire@demo.filiere.bj');
    await search(page, GROWER.lastname);
    const row = page.getByRole('row').filter({ hasText: GROWER.firstname });
    await expect.poll(() => row.count()).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Télécharger' }).click(),
    ]);
    const dir = mkdtempSync(path.join(tmpdir(), 'growers-xlsx-'));
    const file = path.join(dir, 'producteurs.xlsx');
    await download.saveAs(file);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    rmSync(dir, { recursive: true, force: true });
    const sheet = book.worksheets[0]!;
    const rows: string[][] = [];
    sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    // French headers, and the searched grower with its phone and total area.
    expect(rows[0]).toEqual(expect.arrayContaining(['Nom', 'Prénoms']));
    const mine = rows.filter((r) => r.includes(GROWER.lastname) && r.includes(GROWER.firstname));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.join('').replace(/\s/g, '')).toContain(GROWER.phone);

    // Typing again, then opening the grower before the box reports (after a pause) while its
    // page still loads (its script held back): the late report must not bring the user back
    // to the list.
    await page.route('**/assets/*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByRole('searchbox', { name: 'Rechercher' }).first().fill('Tosso');
    await row.getByRole('link', { name: `Voir ${GROWER.name}` }).click();
    await page.getByRole('heading', { name: GROWER.name }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/producteurs/show/${growerId}`);
    await page.close();
  });
});
