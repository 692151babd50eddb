import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import frNav from '../src/shared/i18n/locales/fr/nav.json' with { type: 'json' };
import { LIMITS } from '../../services/api/src/identity/http/rate-limit.js';
import { buildMenu } from '../src/shared/navigation/menu.js';
import { ROUTES } from '../src/shared/navigation/routes.js';
import { screenshot, screenshotDir, seriousViolations } from './support/axe.js';
import { browserMissingReason, launchBrowser, newPage } from './support/browser.js';
import { startE2eServer, type E2eServer } from './support/server.js';
import { signedInPage } from './support/session.js';

const missing = browserMissingReason();

/** The French labels of the menu a role should see, from the one route table. */
function expectedMenu(role: string): string[] {
  const menu = buildMenu({ role });
  const labels = frNav.routes as Record<string, string>;
  return [...menu.top, ...menu.groups.flatMap((g) => g.items)].map((r) => labels[r.key]!);
}

/** Entries only the super admin may see. */
const superAdminOnly = ROUTES.filter(
  (r) => Array.isArray(r.roles) && r.roles.length === 1 && r.roles[0] === 'ROLE_SUPER_ADMIN',
).map((r) => (frNav.routes as Record<string, string>)[r.key]!);

describe.skipIf(missing !== null)('identity screens in Chromium', { timeout: 120_000 }, () => {
  let server: E2eServer;
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (path: string): Promise<Page> => {
    const page = await newPage(browser);
    pages.push(page);
    await page.goto(server.baseUrl + path);
    return page;
  };

  /** axe: no serious or critical violation; and a screenshot for review. */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  /**
   * Signed in through the API, for the tests whose subject is a signed-in screen: the login
   * form, its redirect and its answers are the subject of the tests that type into it.
   */
  const openAs = async (
    email: string,
    path: string,
    viewport?: { width: number; height: number },
  ) => {
    const page = await signedInPage(browser, server.baseUrl, email, server.password, path, {
      viewport,
    });
    pages.push(page);
    return page;
  };

  const login = async (page: Page, email: string, password = server.password) => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Mot de passe/).fill(password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
  };

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Menu principal' }).last();
  /** The menu's entries, once drawn (the side navigation comes a frame after the screen). */
  const menuOf = async (page: Page) => {
    await nav(page).getByRole('link').first().waitFor();
    return nav(page).getByRole('link').allTextContents();
  };

  it('shows the public screens without serious accessibility violations', async () => {
    const page = await open('/auth/login');
    await expect.poll(() => page.getByRole('heading', { name: 'Connexion' }).count()).toBe(1);
    await check(page, 'login');
    await page.getByRole('link', { name: "S'inscrire" }).click();
    await page.getByLabel("Type d'organisation").first().click();
    await page.getByRole('option', { name: 'Agrégateur' }).click();
    await expect.poll(() => page.getByLabel('Dénomination').count()).toBe(1);
    await check(page, 'register');
    await page.goto(`${server.baseUrl}/auth/password-forget`);
    await check(page, 'password-forget');
    await page.goto(`${server.baseUrl}/auth/change-password?t=x&r=a%40b.bj`);
    await check(page, 'change-password');
  });

  it('registers an aggregator, who sets a password, is activated by the super admin and signs in', async () => {
    const email = 'awa.dossou@ananas-bio.bj';
    const page = await open('/auth/register');
    await page.getByLabel(/^Nom/).fill('Dossou');
    await page.getByLabel('Prénoms').fill('Awa');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Téléphone').fill('97000042');
    await page.getByLabel("Type d'organisation").first().click();
    await page.getByRole('option', { name: 'Agrégateur' }).click();
    await page.getByLabel('IFU').fill('3201234567890');
    await page.getByLabel('Dénomination').fill('Ananas Bio SARL');
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.getByText('Email de confirmation de compte envoyé').waitFor();
    await expect.poll(() => page.getByRole('button', { name: "Renvoyer l'email" }).count()).toBe(1);
    await check(page, 'register-sent');

    // The mail arrives with the invitation link.
    const link = await server.mail.linkTo(email, '/auth/signup-invitation');
    await page.goto(server.baseUrl + link.pathname + link.search);
    const checklist = page.getByTestId('password-checklist').locator('li');
    await page.getByLabel(/^Mot de passe/).fill('ananas');
    expect(await checklist.evaluateAll((items) => items.map((i) => i.dataset.ok))).toEqual([
      'false',
      'false',
      'false',
      'false',
    ]);
    await page.getByLabel(/^Mot de passe/).fill('Ananas#2026');
    expect(await checklist.evaluateAll((items) => items.map((i) => i.dataset.ok))).toEqual([
      'true',
      'true',
      'true',
      'true',
    ]);
    await page.getByLabel('Confirmation du mot de passe').fill('Ananas#2027');
    await page.getByText('Les deux mots de passe ne sont pas identiques').waitFor();
    await check(page, 'signup-invitation');
    await page.getByLabel('Confirmation du mot de passe').fill('Ananas#2026');
    await page.getByRole('button', { name: 'Valider' }).click();
    // Self-registered: the account waits for the super admin's activation, and says so.
    await page
      .getByTestId('password-set')
      .getByText(
        "Mot de passe défini. Votre compte sera utilisable dès qu'un administrateur l'aura activé.",
      )
      .waitFor();

    // Not active yet: 406.
    await page.goto(`${server.baseUrl}/auth/login`);
    await login(page, email, 'Ananas#2026');
    await page.getByText("Votre compte n'a pas encore été activé").waitFor();
    await login(page, email, 'Mauvais#2026');
    await page.getByText('Vos identifiants sont incorrectes').waitFor();

    // The super admin sees the red counter and activates the account.
    const admin = await open('/utilisateurs');
    await admin.waitForURL(/\/auth\/login\?redirect=/);
    await login(admin, 'superadmin@demo.filiere.bj');
    await admin.waitForURL(/\/utilisateurs/);
    // The red counter holds the new aggregator (plus any inactive demo aggregator).
    const counter = nav(admin).getByTestId('inactive-count');
    await counter.waitFor();
    const before = Number(await counter.textContent());
    expect(before).toBeGreaterThanOrEqual(1);
    await admin.getByRole('searchbox', { name: 'Rechercher' }).fill('awa.dossou');
    const activate = admin.getByRole('button', { name: 'Activer Awa Dossou', exact: true });
    await activate.waitFor();
    await check(admin, 'users');
    await activate.click();
    await admin.getByRole('button', { name: 'Désactiver Awa Dossou' }).waitFor();
    await expect
      .poll(async () => ((await counter.count()) ? Number(await counter.textContent()) : 0))
      .toBe(before - 1);

    // The aggregator signs in and sees its menu (no Gestion group for ROLE_INDUSTRIAL).
    await page.goto(`${server.baseUrl}/auth/login`);
    await login(page, email, 'Ananas#2026');
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor();
    expect(await page.getByTestId('profile-block').textContent()).toContain('Ananas Bio SARL');
    const aggregatorMenu = await menuOf(page);
    expect(aggregatorMenu).toEqual(expectedMenu('ROLE_INDUSTRIAL'));
    expect(aggregatorMenu).not.toContain('Utilisateurs');
    expect(await page.getByTestId('wallet-balance').textContent()).toBe('••••••');
    await check(page, 'profile');
  });

  it('shows a cluster manager no super-admin entry, counter or status column', async () => {
    const page = await openAs('gestionnaire@demo.filiere.bj', '/utilisateurs');
    await page.getByRole('heading', { name: 'Utilisateurs' }).waitFor();
    const menu = await menuOf(page);
    expect(menu).toEqual(expectedMenu('ROLE_CLUSTER_MANAGER'));
    expect(menu).toContain('Utilisateurs');
    for (const entry of superAdminOnly) expect(menu).not.toContain(entry);
    expect(await page.getByTestId('inactive-count').count()).toBe(0);
    await page.getByRole('table').waitFor();
    expect(await page.getByRole('columnheader', { name: 'Statut du compte' }).count()).toBe(0);
  });

  it('edits the profile in modals', async () => {
    const page = await openAs('admin@demo.filiere.bj', '/profile');
    await page.getByRole('button', { name: 'Modifier : Nom' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nom').fill('Houngbo');
    await check(page, 'profile-edit');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect
      .poll(() => page.getByTestId('profile-lastname').textContent())
      .toContain('Houngbo');
    await page.getByRole('button', { name: 'Modifier : Mot de passe' }).click();
    await page.getByRole('dialog').getByTestId('password-checklist').waitFor();
    await check(page, 'profile-password');
  });

  it('opens the side navigation from the mobile header', async () => {
    const page = await openAs('superadmin@demo.filiere.bj', '/dashboard', {
      width: 390,
      height: 844,
    });
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor();
    const toggle = page.getByRole('button', { name: 'Ouvrir le menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await nav(page).getByRole('link', { name: 'Utilisateurs' }).click();
    await page.getByRole('heading', { name: 'Utilisateurs' }).waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await check(page, 'users-mobile');
  });

  it('switches the language to English and back, remembered across a reload', async () => {
    const page = await openAs('sfd@demo.filiere.bj', '/profile');
    await page.getByRole('heading', { name: 'Mon profil' }).waitFor();
    await page.getByTestId('profile-block').click();
    await page.getByTestId('lang-en').waitFor();
    // The open menu too (its red logout entry is text: 4.5:1).
    await check(page, 'profile-menu');
    await page.getByTestId('lang-en').click();
    await page.getByRole('heading', { name: 'My profile' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'My profile' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await check(page, 'profile-en');
    await page.getByTestId('profile-block').click();
    await page.getByTestId('lang-fr').click();
    await page.getByRole('heading', { name: 'Mon profil' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Mon profil' }).waitFor();
  });

  it('shows the server message in the login form when attempts are over the limit (429)', async () => {
    const page = await open('/auth/login');
    const email = 'trop.de.tentatives@exemple.bj';
    // The attempts the limit allows, from this page's client (its context's address) through
    // the API the form calls: each a 401 (the form's 401 message: the registration test).
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.attempt.perIp.max; i++) {
      const answer = await page.request.post(`${server.baseUrl}/api/auth/login`, {
        data: { email, password: 'Mauvais#2026' },
      });
      statuses.push(answer.status());
    }
    expect(statuses.every((s) => s === 401)).toBe(true);
    // The form's attempt is over the limit.
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
    await login(page, email, 'Mauvais#2026');
    expect((await answer).status()).toBe(429);
    const alert = page.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toMatch(/^Trop de tentatives\. Réessayez dans \d+ minutes?\.$/);
    expect(await page.getByText('Une erreur inattendue est survenue').count()).toBe(0);
    await check(page, 'login-too-many');
    // Another client (its own forwarded address) still signs in.
    const other = await open('/auth/login');
    await login(other, 'gestionnaire@demo.filiere.bj');
    await other.getByRole('heading', { name: 'Tableau de bord' }).waitFor();
  });
});
