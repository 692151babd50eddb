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

/** The carrier this test registers (a phone and registrations no demo account holds). */
const CARRIER = {
  lastname: 'Hounkpatin',
  firstname: 'Aristide',
  phone: '0167420815',
  name: 'Aristide Hounkpatin',
  registrations: ['AB 4521 RB', 'CD 7730 RB'],
};

/**
 * Transporteurs: the cluster manager registers a carrier with two
 * vehicles through the form (location cascade, momo pre-filled from the phone), finds it in
 * the list with its vehicle dropdown, opens its Profil and Contrats tabs, deactivates it with
 * the spec's confirmation and message, finds it under 'Désactivés' and reactivates it; a demo
 * carrier's Contrats tab shows each contract's status; the carriers list downloads as an .xlsx read back with exceljs. Every screen axe-checked.
 */
describe.skipIf(missing !== null)('carriers in Chromium', { timeout: 240_000 }, () => {
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

  /** Signed in through the API (the login form is identity.test.ts's subject). */
  const signIn = async (email: string): Promise<Page> => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      email,
      server.password,
      '/transporteurs',
    );
    await page.getByRole('heading', { name: 'Transporteurs' }).waitFor();
    return page;
  };

  /**
   * The cluster manager's page at Transporteurs: signed in by the first test, then loaded again
   * at the list by the next ones, in the same context (its HTTP cache warm: a new context loads
   * and compiles the whole app again, ~1.7 s more at load 13).
   */
  let manager: Page | undefined;
  const managerOnList = async (): Promise<Page> => {
    if (!manager || manager.isClosed()) {
      manager = await signIn('gestionnaire@demo.filiere.bj');
      return manager;
    }
    await manager.goto(`${server.baseUrl}/transporteurs`);
    await manager.getByRole('heading', { name: 'Transporteurs' }).waitFor();
    return manager;
  };

  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

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

  const search = async (page: Page, q: string) => {
    await page.getByRole('searchbox', { name: 'Rechercher' }).first().fill(q);
    await page.waitForURL((url) => url.searchParams.get('q') === q);
  };

  it('the cluster manager registers a carrier with two vehicles, finds it and opens it', async () => {
    const page = await managerOnList();
    await check(page, 'carriers-list');
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    await nav.getByRole('link', { name: 'Transporteurs' }).waitFor();

    await page.getByRole('link', { name: 'Ajouter un transporteur' }).click();
    await page.waitForURL((url) => url.pathname === '/transporteurs/create');
    await page.getByRole('heading', { name: 'Ajouter un transporteur' }).waitFor();
    const submit = page.getByRole('button', { name: 'Ajouter le transporteur' });
    expect(await submit.isEnabled()).toBe(false);

    const personal = page.getByRole('region', { name: 'Informations personnelles' });
    await personal.getByLabel(/^Nom/).first().fill(CARRIER.lastname);
    await personal.getByLabel(/^Prénoms/).fill(CARRIER.firstname);
    await personal.getByLabel(/^Téléphone/).fill(CARRIER.phone);
    await choose(personal.getByTestId('location-department'), 'ATLANTIQUE');
    await choose(personal.getByTestId('location-commune'), 'ALLADA');
    await choose(personal.getByTestId('location-arrondissement'));
    await choose(personal.getByTestId('location-village'));
    await personal.getByLabel(/^Adresse/).fill('Carrefour Agbanou, Allada');

    const vehicles = page.getByRole('region', { name: 'Véhicules' });
    await choose(vehicles.getByLabel(/^Type de véhicule/).first(), 'Bâchée');
    // The type's default capacity (spec §3).
    expect(
      await vehicles
        .getByLabel(/^Capacité/)
        .first()
        .inputValue(),
    ).toBe('1000');
    await vehicles
      .getByLabel(/^Immatriculation/)
      .first()
      .fill(CARRIER.registrations[0]!);
    await vehicles.getByRole('button', { name: 'Ajouter un véhicule' }).click();
    await choose(vehicles.getByLabel(/^Type de véhicule/).nth(1), 'Tercel');
    expect(
      await vehicles
        .getByLabel(/^Capacité/)
        .nth(1)
        .inputValue(),
    ).toBe('2000');
    await vehicles
      .getByLabel(/^Immatriculation/)
      .nth(1)
      .fill(CARRIER.registrations[1]!);
    // A vehicle needs its registration.
    await vehicles
      .getByLabel(/^Immatriculation/)
      .nth(1)
      .fill('');
    await vehicles.getByText('Ce champ est obligatoire').first().waitFor();
    await vehicles
      .getByLabel(/^Immatriculation/)
      .nth(1)
      .fill(CARRIER.registrations[1]!);

    const payout = page.getByRole('region', { name: 'Compte de reversement' });
    // The mobile money number follows the phone.
    expect(await payout.getByLabel(/^Numéro mobile money/).inputValue()).toBe(CARRIER.phone);
    await choose(payout.getByLabel(/^Banque/), 'Orabank Bénin');
    await payout.getByLabel(/^Numéro de compte bancaire/).fill('BJ164010020099887766');
    await check(page, 'carriers-form');
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();

    await page.getByText('Transporteur ajouté avec succès !').first().waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/transporteurs/show/'));
    await page.getByRole('heading', { name: CARRIER.name }).waitFor();
    for (const registration of CARRIER.registrations) await page.getByText(registration).waitFor();
    await check(page, 'carriers-profile');
    await page.getByRole('tab', { name: 'Contrats' }).click();
    await page.getByText('Aucun élément trouvé').waitFor();

    await page.goto(`${server.baseUrl}/transporteurs`);
    await search(page, CARRIER.lastname);
    const row = page.getByRole('row').filter({ hasText: CARRIER.firstname });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: `2 véhicules de ${CARRIER.name}` }).click();
    const menu = page.getByTestId('vehicles-dropdown');
    await menu.getByText(CARRIER.registrations[0]!).waitFor();
    await menu.getByText('Capacité : 2000 Kg').waitFor();
    await check(page, 'carriers-vehicles-menu');
    await page.keyboard.press('Escape');
    await row.getByRole('link', { name: `Voir ${CARRIER.name}` }).click();
    await page.getByRole('heading', { name: CARRIER.name }).waitFor();
  });

  it('deactivates the carrier with the spec’s confirmation, then reactivates it', async () => {
    const page = await managerOnList();
    await search(page, CARRIER.lastname);
    const row = page.getByRole('row').filter({ hasText: CARRIER.firstname });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: `Supprimer ${CARRIER.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Supprimer un transporteur' });
    await dialog.getByText('Êtes-vous sûr de vouloir supprimer ce transporteur ?').waitFor();
    await dialog.getByText(/seulement désactivé : il pourra être réactivé/).waitFor();
    await check(page, 'carriers-deactivate-confirm');
    await dialog.getByRole('button', { name: 'Oui, supprimer' }).click();
    await page
      .getByText(`Le transporteur ${CARRIER.name} est désactivé. Il pourra être réactivé`)
      .first()
      .waitFor();
    await expect.poll(() => row.count()).toBe(0);

    await page.getByRole('combobox', { name: 'Filtrer par statut' }).click();
    await page.getByRole('option', { name: 'Désactivés', exact: true }).click();
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: `Réactiver ${CARRIER.name}` }).click();
    await page.getByText(`Le transporteur ${CARRIER.name} est réactivé`).first().waitFor();
    await expect.poll(() => row.count()).toBe(0);
    await page.getByRole('combobox', { name: 'Filtrer par statut' }).click();
    await page.getByRole('option', { name: 'Actifs', exact: true }).click();
    await expect.poll(() => row.count()).toBe(1);
  });

  it('shows the status of each of a carrier’s carriage contracts on its Contrats tab', async () => {
    // The demo pays one carriage contract and leaves the other to come: the paid one's carrier.
    const paid = await server.db.db
      .selectFrom('carriage_contracts as c')
      .innerJoin('users as u', 'u.id', 'c.carrier_user_id')
      .select(['c.reference', 'u.firstname', 'u.lastname'])
      .where('c.status', '=', 'PAID')
      .executeTakeFirstOrThrow();
    const name = `${paid.firstname} ${paid.lastname}`;
    const page = await managerOnList();
    await search(page, paid.lastname);
    await page
      .getByRole('row')
      .filter({ hasText: paid.firstname })
      .getByRole('link', { name: `Voir ${name}` })
      .click();
    await page.getByRole('heading', { name }).waitFor();
    await page.getByRole('tab', { name: 'Contrats' }).click();
    const row = page.getByRole('row').filter({ hasText: paid.reference });
    await row.getByText('Payé', { exact: true }).waitFor();
    await check(page, 'carriers-contracts-status');
  });

  it('downloads the carriers list as an .xlsx that holds the carrier and its vehicles', async () => {
    const page = await managerOnList();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Télécharger' }).click(),
    ]);
    const dir = mkdtempSync(path.join(tmpdir(), 'carriers-xlsx-'));
    const file = path.join(dir, 'transporteurs.xlsx');
    await download.saveAs(file);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    rmSync(dir, { recursive: true, force: true });
    const rows: string[][] = [];
    book.worksheets[0]!.eachRow((r) =>
      rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))),
    );
    expect(rows[0]).toEqual(expect.arrayContaining(['Nom', 'Prénoms', 'Téléphone']));
    const mine = rows.filter((r) => r.includes(CARRIER.lastname));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.join('').replace(/\s/g, '')).toContain(CARRIER.phone);
    for (const registration of CARRIER.registrations) {
      expect(mine[0]!.join(' ')).toContain(registration);
    }
    await page.close();
  });
});
