import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import { browserMissingReason, explainFailures, launchBrowser } from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { signedInPage } from './support/session.js';

const missing = browserMissingReason();

const FINANCE = 'superadmin@demo.filiere.bj';
/** The platform's auditor: the demo's ROLE_ACCOUNTING account, outside any organisation. */
const AUDITOR = 'auditeur@demo.filiere.bj';
const PHONE = { width: 390, height: 844 };

/** The supply account's statement for two days, as a Benin bank exports it in MT940. */
const MT940 = [
  '{1:F01BOABBJBJAXXX0000000000}{2:O9400700261205BOABBJBJAXXX00000000002612050700N}{4:',
  ':20:BOA2612040001',
  ':25:BJ0610100100000000000001',
  ':28C:117/1',
  ':60F:C261203XOF500000,',
  ':61:2612041204C75000,NTRFNONREF//BOA26120400017',
  ':86:VIREMENT RECU APP-E2E1A COOPERATIVE ALLADA',
  ':61:2612041204D20000,NTRFNONREF//BOA26120400018',
  ':86:VIREMENT EMIS APP-E2E1B',
  ':62F:C261204XOF555000,',
  '-}',
  '{1:F01BOABBJBJAXXX0000000000}{2:O9400700261206BOABBJBJAXXX00000000002612060700N}{4:',
  ':20:BOA2612050001',
  ':25:BJ0610100100000000000001',
  ':28C:118/1',
  ':60F:C261204XOF555000,',
  ':61:2612051205C40000,NTRFNONREF//BOA26120500003',
  ':86:VERSEMENT APP-E2E2A',
  ':62F:C261205XOF595000,',
  '-}',
].join('\r\n');

/**
 * 'Rapprochement' in a browser, on one server: finance imports the bank's MT940 file (its
 * format recognised by content; imported again, nothing new), closes the statement's last
 * day and reads its figures, finds the exceptions the file left, takes one and filters by
 * owner, then closes it with a reason; the auditor sees the same exceptions and their history
 * with no import and no action. Axe-checked at desktop width and at 390 px.
 */
describe.skipIf(missing !== null)('reconciliation in Chromium', { timeout: 600_000 }, () => {
  explainFailures();
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const check = async (on: Page, name: string) => {
    await on.waitForLoadState('networkidle');
    await screenshot(on, name);
    expect(await seriousViolations(on), name).toEqual([]);
  };
  const exceptionRow = (on: Page, reference: string) =>
    on.getByRole('row').filter({ hasText: reference });
  const searchFor = async (on: Page, reference: string) => {
    await on.getByPlaceholder('Rechercher une référence ou un compte').fill(reference);
    await exceptionRow(on, reference).first().waitFor();
  };

  it('finance imports a statement, closes the day, assigns an exception and closes it with a reason', async () => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      FINANCE,
      server.password,
      '/rapprochement',
    );
    await page.getByRole('heading', { name: 'Rapprochement' }).waitFor();
    await page.getByRole('heading', { name: 'Importer un relevé' }).waitFor();

    const file = { name: 'releve.sta', mimeType: 'text/plain', buffer: Buffer.from(MT940) };
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByRole('button', { name: 'Importer', exact: true }).click();
    const answer = page.getByRole('status').filter({ hasText: 'ligne(s) enregistrée(s)' });
    await expect
      .poll(() => answer.textContent())
      .toBe('3 ligne(s) enregistrée(s), 0 déjà connue(s).');
    // The same file again records nothing.
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByRole('button', { name: 'Importer', exact: true }).click();
    await expect
      .poll(() => answer.textContent())
      .toBe('0 ligne(s) enregistrée(s), 3 déjà connue(s).');

    // A file of no known format is refused with the API's French message.
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('Bonjour') });
    await page.getByRole('button', { name: 'Importer', exact: true }).click();
    await page
      .getByText(
        'Format de relevé non reconnu : importez un MT940, un CAMT.053, ou un CSV avec le code de sa banque',
      )
      .waitFor();

    // The statement's last day is offered; closing it opens the 4 December's lines.
    expect(await page.getByRole('textbox', { name: 'Journée', exact: true }).inputValue()).toBe(
      '2026-12-05',
    );
    await page.getByRole('button', { name: 'Rapprocher la journée' }).click();
    await page
      .getByText(/^Journée rapprochée : \d+ rapproché\(s\), \d+ écart\(s\) ouvert\(s\)\.$/)
      .waitFor();
    const day = page
      .getByRole('row')
      .filter({ hasText: '2026-12-05' })
      .filter({ hasText: 'Banque' });
    await day.waitFor();
    await day
      .getByRole('button', { name: 'Télécharger le rapport .xlsx du 2026-12-05 (Banque)' })
      .waitFor();
    await check(page, 'reconciliation-finance');

    await searchFor(page, 'APP-E2E1A');
    const row = exceptionRow(page, 'APP-E2E1A');
    expect(await row.textContent()).toMatch(/75\s000/);
    await row.getByRole('button', { name: 'Encaissé, non crédité' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByText('Écart ouvert').waitFor();
    await modal.getByRole('button', { name: 'Me le confier' }).click();
    await modal.getByText(/^Confié à (?!un administrateur)/).waitFor();
    const owner = ((await modal.getByText(/^Responsable : /).textContent()) ?? '').replace(
      'Responsable : ',
      '',
    );
    expect(owner).not.toBe('—');
    await check(page, 'reconciliation-exception');
    await page.keyboard.press('Escape');
    await expect.poll(() => row.textContent()).toContain(owner);

    // Filtered by owner: mine holds it, 'Sans responsable' does not.
    await page.getByRole('combobox', { name: 'Responsable', exact: true }).click();
    await page.getByRole('option', { name: 'Sans responsable' }).click();
    await page.getByText('APP-E2E1A').waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Responsable', exact: true }).click();
    await page.getByRole('option', { name: 'Mes écarts' }).click();
    await row.waitFor();
    expect(new URL(page.url()).searchParams.get('owner')).toBe('me');

    await row.getByRole('button', { name: 'Encaissé, non crédité' }).click();
    await modal
      .getByLabel('Note ou motif')
      .fill('Virement interne de la coopérative, hors plateforme');
    await modal.getByRole('button', { name: 'Clore avec ce motif' }).click();
    await modal.getByText('Virement interne de la coopérative, hors plateforme').waitFor();
    await expect
      .poll(() => modal.getByRole('button', { name: 'Clore avec ce motif' }).count())
      .toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => row.textContent()).toContain('Clos');

    const phone = await signedInPage(
      browser,
      server.baseUrl,
      FINANCE,
      server.password,
      '/rapprochement',
      {
        viewport: PHONE,
      },
    );
    await phone.getByRole('heading', { name: 'Importer un relevé' }).waitFor();
    await searchFor(phone, 'APP-E2E1A');
    await check(phone, 'reconciliation-finance-390');
  });

  it('finance adds a bank’s CSV format, then imports that bank’s CSV choosing its code', async () => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      FINANCE,
      server.password,
      '/rapprochement',
    );
    await page.getByRole('heading', { name: 'Formats CSV des banques' }).waitFor();
    await page.getByRole('button', { name: 'Ajouter le format CSV d’une banque' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('heading', { name: 'Ajouter un format' }).waitFor();
    const field = (name: string) => modal.getByRole('textbox', { name, exact: true });
    await field('Code de la banque').fill('boa_csv');
    expect(await field('Code de la banque').inputValue()).toBe('BOA_CSV');
    // A column name holding the separator can never be one header: refused on its field.
    await field('Colonne de la date').fill('Date;Heure');
    await field('Colonne du montant').focus();
    await modal
      .getByText('Le nom de la colonne ne peut pas contenir le séparateur (le point-virgule)')
      .waitFor();
    expect(await field('Colonne de la date').getAttribute('aria-invalid')).toBe('true');
    await modal.getByText('Le nom exact de l’en-tête dans le fichier').waitFor();
    await check(page, 'reconciliation-mapping-form');
    await field('Colonne de la date').fill('Date opération');
    await field('Colonne du montant').fill('Montant');
    await field('Colonne de la référence de la banque').fill('Référence');
    await field('Colonne du libellé').fill('Libellé');
    expect(await field('Colonne de la date').getAttribute('aria-invalid')).not.toBe('true');
    await modal.getByRole('button', { name: 'Enregistrer le format' }).click();
    await modal.waitFor({ state: 'detached' });
    const saved = page.getByRole('row').filter({ hasText: 'BOA_CSV' });
    await saved.waitFor();
    expect(await saved.textContent()).toContain('Point-virgule');

    await page.getByRole('combobox', { name: 'Code de la banque' }).click();
    await page.getByRole('option', { name: 'BOA_CSV' }).click();
    const csv = [
      'Date opération;Montant;Référence;Libellé',
      '06/12/2026;15 000;BOA-CSV-E2E-1;VERSEMENT APP-E2E3A',
      '06/12/2026;-5 000;BOA-CSV-E2E-2;FRAIS TENUE DE COMPTE',
    ].join('\r\n');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'releve-boa.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Importer', exact: true }).click();
    await expect
      .poll(() =>
        page.getByRole('status').filter({ hasText: 'ligne(s) enregistrée(s)' }).textContent(),
      )
      .toBe('2 ligne(s) enregistrée(s), 0 déjà connue(s).');
    // The CSV's day is offered and closes: the bank's day of 6 December is listed.
    expect(await page.getByRole('textbox', { name: 'Journée', exact: true }).inputValue()).toBe(
      '2026-12-06',
    );
    await page.getByRole('button', { name: 'Rapprocher la journée' }).click();
    await page
      .getByRole('row')
      .filter({ hasText: '2026-12-06' })
      .filter({ hasText: 'Banque' })
      .waitFor();

    const phone = await signedInPage(
      browser,
      server.baseUrl,
      FINANCE,
      server.password,
      '/rapprochement',
      { viewport: PHONE },
    );
    await phone.getByRole('row').filter({ hasText: 'BOA_CSV' }).waitFor();
    await phone.getByRole('button', { name: 'Modifier le format de BOA_CSV' }).click();
    const edit = phone.getByRole('dialog');
    await edit.getByRole('heading', { name: 'Modifier le format de BOA_CSV' }).waitFor();
    expect(
      await edit.getByRole('textbox', { name: 'Colonne du libellé', exact: true }).inputValue(),
    ).toBe('Libellé');
    await check(phone, 'reconciliation-mapping-form-390');
  });

  it('finance picks a sample CSV: its headers offered, its first 3 rows read as the import will', async () => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      FINANCE,
      server.password,
      '/rapprochement',
    );
    await page.getByRole('button', { name: 'Ajouter un format', exact: true }).click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('heading', { name: 'Ajouter un format' }).waitFor();
    await modal.getByRole('textbox', { name: 'Code de la banque', exact: true }).fill('ECO_CSV');
    await modal.getByLabel(/^Séparateur/).click();
    await page.getByRole('option', { name: 'Virgule ( , )' }).click();
    await modal.getByLabel(/^Format de la date/).click();
    await page.getByRole('option', { name: 'AAAA-MM-JJ (ISO)' }).click();
    const sample = [
      'Date,Montant,Sens,Ref banque,Libellé',
      '2026-12-07,"12 500",C,ECO-1,"VERSEMENT APP-E2E4A, COOPERATIVE"',
      '2026-12-07,3000,D,ECO-2,FRAIS',
      '2026-12-07,abc,C,ECO-3,RETOUR',
      '2026-12-07,1,C,ECO-4,NON LUE',
    ].join('\n');
    await modal
      .locator('input[type="file"]')
      .setInputFiles({ name: 'exemple.csv', mimeType: 'text/csv', buffer: Buffer.from(sample) });
    // The sample's headers are offered for each column.
    await modal.getByLabel(/^Colonne de la date/).click();
    await page.getByRole('option', { name: 'Date', exact: true }).click();
    await modal.getByLabel(/^Colonne du montant/).fill('Montant');
    await modal.getByLabel(/^Colonne du sens/).fill('Sens');
    await modal.getByLabel(/^Colonne de la référence de la banque/).fill('Ref banque');
    await modal.getByLabel(/^Colonne du libellé/).fill('Libellé');
    const preview = modal.getByRole('table', { name: 'Aperçu du fichier d’exemple' });
    await preview.waitFor();
    const rows = preview.getByRole('row');
    await expect.poll(() => rows.count()).toBe(4);
    expect(await rows.nth(1).textContent()).toMatch(
      /^207\/12\/202612\s500.*EntréeECO-1APP-E2E4A—$/,
    );
    expect(await rows.nth(2).textContent()).toMatch(/^3.*3\s000.*SortieECO-2——$/);
    expect(await rows.nth(3).textContent()).toBe('4Montant illisible');
    await check(page, 'reconciliation-mapping-sample');
    // A separator that does not split the file says so.
    await modal.getByLabel(/^Séparateur/).click();
    await page.getByRole('option', { name: 'Tabulation' }).click();
    await modal.getByText('Le fichier d’exemple ne se lit pas avec ce séparateur.').waitFor();
  });

  it('the auditor sees the exceptions, their history and the banks’ formats, with no import and no action', async () => {
    for (const viewport of [undefined, PHONE]) {
      const page = await signedInPage(
        browser,
        server.baseUrl,
        AUDITOR,
        server.password,
        '/rapprochement',
        viewport ? { viewport } : {},
      );
      await page.getByRole('heading', { name: 'Rapprochement' }).waitFor();
      await searchFor(page, 'APP-E2E1B');
      expect(await page.getByRole('heading', { name: 'Importer un relevé' }).count()).toBe(0);
      // The banks' CSV formats, read only.
      await page.getByRole('row').filter({ hasText: 'BOA_CSV' }).waitFor();
      expect(await page.getByRole('button', { name: 'Ajouter un format' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Modifier/ }).count()).toBe(0);
      await exceptionRow(page, 'APP-E2E1B').getByRole('button').first().click();
      const modal = page.getByRole('dialog');
      await modal.getByText('Écart ouvert').waitFor();
      expect(await modal.getByRole('button', { name: 'Clore avec ce motif' }).count()).toBe(0);
      expect(await modal.getByRole('button', { name: 'Me le confier' }).count()).toBe(0);
      await check(page, viewport ? 'reconciliation-auditor-390' : 'reconciliation-auditor');
    }
  });
});
