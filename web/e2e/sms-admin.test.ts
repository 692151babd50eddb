import { mkdirSync } from 'node:fs';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import { browserMissingReason, explainFailures, launchBrowser } from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { signedInPage } from './support/session.js';

const missing = browserMissingReason();
const SUPER_ADMIN = 'superadmin@demo.filiere.bj';
const PHONE = { viewport: { width: 390, height: 844 } };
const PIN = '73519';

/**
 * The super admin's 'SMS' screen on a 390 px phone: the messages with their state, the way
 * each went and the reason of a failure in French, a PIN's text masked; the state and kind
 * filters and the search; a message written while the screen is open appears without a
 * reload (the `sms.changed` push); the counts per member and per season; the same screen in
 * English. Axe-checked, nothing wider than the phone.
 */
describe.skipIf(missing !== null)('the SMS screen in Chromium', { timeout: 600_000 }, () => {
  explainFailures();
  let server: E2eServer;
  let browser: Browser;
  let adminId = '';
  let growerId = '';

  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, name).toBeLessThanOrEqual(390);
  };

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
    const db = server.db.db;
    adminId = (
      await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', SUPER_ADMIN)
        .executeTakeFirstOrThrow()
    ).id;
    growerId = (
      await db
        .selectFrom('users as u')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select('u.id')
        .where('r.code', '=', 'ROLE_GROWER')
        .orderBy('u.id')
        .executeTakeFirstOrThrow()
    ).id;
    await sql`truncate sms_outbox`.execute(db);
    await db
      .insertInto('sms_outbox')
      .values([
        {
          recipient: '+2290197550001',
          text: `Filière : votre nouveau code PIN est ${PIN}. Ne le communiquez à personne.`,
          kind: 'pin',
          user_id: growerId,
          status: 'delivered',
          segments: 1,
          sent_at: new Date(),
          delivered_at: new Date(),
        },
        {
          recipient: '+2290197550001',
          text: 'Filière : intrants de la demande DEM-000042 livrés, 50 kg.',
          kind: 'input-delivery',
          user_id: growerId,
          season_id: 1,
          status: 'failed',
          attempts: 1,
          failed_at: new Date(),
          failure: 'Numéro inconnu ou inactif (Twilio 30005)',
        },
      ])
      .execute();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the messages with their history, masks a PIN, filters, and refreshes live', async () => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      SUPER_ADMIN,
      server.password,
      '/sms',
      PHONE,
    );
    await page.getByRole('heading', { name: 'SMS', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Messages envoyés' });
    await table.getByText('Code masqué').waitFor();
    await table.getByText('Raison : Numéro inconnu ou inactif (Twilio 30005)').waitFor();
    expect(await page.content()).not.toContain(PIN);
    await expect.poll(() => table.getByText('Échoué', { exact: true }).count()).toBeGreaterThan(0);
    await check(page, 'sms-list-390');

    // The state filter: failed only.
    await page.getByRole('combobox', { name: 'Filtrer par statut' }).click();
    await page.getByRole('option', { name: 'Échoué' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'failed');
    await expect.poll(() => table.getByText('Code masqué').count()).toBe(0);
    await table.getByText("Livraison d'intrants").waitFor();
    await page.getByRole('combobox', { name: 'Filtrer par statut' }).click();
    await page.getByRole('option', { name: 'Remis' }).click();
    await table.getByText('Code masqué').waitFor();

    // Live: a message written while the screen is open shows without a reload.
    await page.goto(`${server.baseUrl}/sms`);
    await table.getByText('Code masqué').waitFor();
    await server.db.db
      .insertInto('sms_outbox')
      .values({
        recipient: '+2290197550001',
        text: 'Filière : paiement reçu, 12 500 F CFA.',
        kind: 'payment',
        user_id: growerId,
        season_id: 1,
      })
      .execute();
    await sql`select pg_notify('filiere_push', ${JSON.stringify({
      type: 'sms.changed',
      userIds: [adminId],
    })})`.execute(server.db.db);
    await table.getByText('Filière : paiement reçu, 12 500 F CFA.').waitFor();

    // The counts: the grower's three messages, one of each state, and season 1's two.
    const byUser = page.getByRole('table', { name: 'Messages par membre' });
    await byUser.getByText('1 en file, 0 envoyés, 1 remis, 1 échoués').waitFor();
    const bySeason = page.getByRole('table', { name: 'Messages par saison' });
    await bySeason.getByText('Saison n° 1').waitFor();
    await bySeason.getByText('1 en file, 0 envoyés, 0 remis, 1 échoués').waitFor();

    // The search: by number.
    await page.getByPlaceholder('Numéro ou nom du membre').fill('0197550001');
    await page.waitForURL((url) => url.searchParams.get('q') === '0197550001');
    await table.getByText('Code masqué').waitFor();
    await check(page, 'sms-counts-390');
    await page.context().close();
  });

  it('is complete in English', async () => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      SUPER_ADMIN,
      server.password,
      '/sms',
      PHONE,
    );
    await page.evaluate((id) => {
      localStorage.setItem('lang', 'en');
      localStorage.setItem(`lang:${id}`, 'en');
    }, adminId);
    await page.reload();
    const table = page.getByRole('table', { name: 'Messages sent' });
    await table.getByText('Code hidden').waitFor();
    await page.getByRole('table', { name: 'Messages per member' }).waitFor();
    await page
      .getByRole('table', { name: 'Messages per season' })
      .getByText('Season no. 1')
      .waitFor();
    const text = await page.locator('main').first().innerText();
    for (const french of ['Remis', 'Échoué', 'Messages par', 'Code masqué', 'Historique']) {
      expect(text).not.toContain(french);
    }
    // No key left untranslated.
    expect(text).not.toMatch(/\b(list|counts|history|status|kinds)\.[a-zA-Z-]+/);
    await check(page, 'sms-english-390');
    await page.context().close();
  });
});
