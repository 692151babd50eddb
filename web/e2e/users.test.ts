import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUser, TEST_PASSWORD } from '../../services/api/src/identity/test-support.js';
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

/** What zod says in English when nobody translated it: must never reach the page. */
const ZOD_ENGLISH = /Invalid input|expected string|received number/;

/**
 * 'Utilisateurs' as each manager uses it: create, edit and
 * delete a user as the super admin, the admin and the cluster manager; the SFD with its
 * organisation's staff; a self-registered cluster manager told it has no cluster until the
 * super admin gives it one; the dead invitation link said before any password is typed; no
 * 'Désactiver' on one's own row; the language menu marks the language in use; the phone field
 * keeps digits only.
 */
describe.skipIf(missing !== null)('user management in Chromium', { timeout: 120_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let superAdmin: Page;

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
  const signIn = async (email: string, password = server.password): Promise<Page> => {
    const page = await signedInPage(browser, server.baseUrl, email, password, '/utilisateurs');
    await page.getByRole('heading', { name: 'Utilisateurs' }).waitFor();
    return page;
  };

  /** axe: no serious or critical violation; and a screenshot for review. */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  /** The Mantine select labelled `label` (its label may end with the required asterisk). */
  const select = (dialog: Locator, label: string) =>
    dialog.getByLabel(new RegExp(`^${label}( \\*)?$`)).first();
  const choose = async (dialog: Locator, label: string, option: string) => {
    await select(dialog, label).click();
    await dialog.page().getByRole('option', { name: option, exact: true }).click();
  };

  const search = async (page: Page, q: string) => {
    await page.getByRole('searchbox', { name: 'Rechercher' }).fill(q);
  };

  /**
   * Adds a user through 'Ajouter un utilisateur', edits its first name through 'Modifier un
   * utilisateur', then deletes it; answers nothing, fails on the way.
   */
  async function addEditDelete(
    page: Page,
    who: string,
    user: { lastname: string; firstname: string; email: string; role: string },
    before?: (dialog: Locator) => Promise<void>,
  ) {
    const add = page.getByRole('button', { name: 'Ajouter un utilisateur' }).first();
    await add.click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un utilisateur' });
    await dialog.getByLabel(/^Nom/).fill(user.lastname);
    await dialog.getByLabel(/^Prénoms/).fill(user.firstname);
    await dialog.getByLabel(/^Email/).fill(user.email);
    await dialog.getByLabel(/^Téléphone/).fill('97001234');
    await choose(dialog, 'Rôle', user.role);
    await before?.(dialog);
    const submit = dialog.getByRole('button', { name: 'Ajouter', exact: true });
    await expect
      .poll(() => submit.isEnabled(), { message: `${who}: 'Ajouter' enabled` })
      .toBe(true);
    expect(await dialog.textContent()).not.toMatch(ZOD_ENGLISH);
    await submit.click();
    await dialog.getByText('Utilisateur ajouté avec succès !').waitFor();
    await dialog.getByRole('button', { name: 'Terminer' }).click();
    // The invitation mail reaches the new user.
    await server.mail.linkTo(user.email, '/auth/signup-invitation');

    const name = `${user.firstname} ${user.lastname}`;
    await search(page, user.email);
    await page.getByRole('button', { name: `Modifier ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Modifier un utilisateur' });
    await edit.getByLabel(/^Prénoms/).fill(`${user.firstname}-Rose`);
    const save = edit.getByRole('button', { name: 'Enregistrer' });
    await expect
      .poll(() => save.isEnabled(), { message: `${who}: 'Enregistrer' enabled` })
      .toBe(true);
    await save.click();
    await page.getByText('Mise à jour effectuée avec succès').first().waitFor();
    const renamed = `${user.firstname}-Rose ${user.lastname}`;
    await page.getByRole('cell', { name: `${user.firstname}-Rose`, exact: true }).waitFor();

    await page.getByRole('button', { name: `Supprimer ${renamed}` }).click();
    const remove = page.getByRole('dialog', { name: 'Supprimer un utilisateur' });
    await remove.getByRole('button', { name: 'Oui, supprimer' }).click();
    await expect
      .poll(() => page.getByRole('cell', { name: user.email, exact: true }).count())
      .toBe(0);
  }

  it('the super admin adds, edits and deletes a user; no Désactiver on its own row; the phone keeps digits', async () => {
    superAdmin = await signIn('superadmin@demo.filiere.bj');
    const page = superAdmin;

    // Its own row: 'Vous', no Désactiver, no delete.
    await search(page, 'superadmin@demo');
    await page.getByRole('cell', { name: 'Vous', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /^Désactiver Sèna Adjovi/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Supprimer Sèna Adjovi' }).count()).toBe(0);
    await search(page, '');

    await page.getByRole('button', { name: 'Ajouter un utilisateur' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un utilisateur' });
    // Letters never enter the phone field, however they come (fill bypasses the keys).
    const phone = dialog.getByLabel(/^Téléphone/);
    await phone.fill('97a000001');
    expect(await phone.inputValue()).toBe('97000001');
    await phone.pressSequentially('x');
    expect(await phone.inputValue()).toBe('97000001');
    // Clusters by their name, never their id.
    await select(dialog, 'Cluster').click();
    await page.getByRole('option', { name: 'Cluster Allada', exact: true }).waitFor();
    const options = await page.getByRole('option').allTextContents();
    expect(options.some((o) => /^[0-9a-f-]{36}$/.test(o))).toBe(false);
    await page.keyboard.press('Escape');
    await check(page, 'users-add');
    await dialog.getByRole('button', { name: 'Annuler' }).click();

    await addEditDelete(page, 'super admin', {
      lastname: 'Hounsou',
      firstname: 'Albert',
      email: 'albert.hounsou@exemple.bj',
      role: 'Producteur',
    });
  });

  it('the admin and the cluster manager add, edit and delete a user of their reach', async () => {
    const admin = await signIn('admin@demo.filiere.bj');
    await addEditDelete(admin, 'admin', {
      lastname: 'Kiki',
      firstname: 'Edwige',
      email: 'edwige.kiki@exemple.bj',
      role: 'Transporteur',
    });
    await admin.close();

    const manager = await signIn('gestionnaire@demo.filiere.bj');
    // Its own row has no Désactiver.
    await search(manager, 'gestionnaire@demo');
    await manager.getByRole('cell', { name: 'Vous', exact: true }).waitFor();
    expect(await manager.getByRole('button', { name: /^Désactiver Fidèle Zinsou/ }).count()).toBe(
      0,
    );
    await search(manager, '');
    await addEditDelete(manager, 'cluster manager', {
      lastname: 'Dossa',
      firstname: 'Rémi',
      email: 'remi.dossa@exemple.bj',
      role: 'Producteur',
    });
    await manager.close();
  });

  it('a cluster manager’s Comptable needs its organisation (the platform auditor is the super admin’s)', async () => {
    const manager = await signIn('gestionnaire@demo.filiere.bj');
    await addEditDelete(
      manager,
      'cluster manager, Comptable',
      {
        lastname: 'Hounkpè',
        firstname: 'Comlan',
        email: 'comlan.hounkpe@exemple.bj',
        role: 'Comptable',
      },
      async (dialog) => {
        // Without an organisation it would be the platform's auditor: the form says so.
        await dialog
          .getByText(
            'Un comptable doit être rattaché à une organisation : seul le super administrateur nomme l’auditeur de la plateforme',
          )
          .waitFor();
        const submit = dialog.getByRole('button', { name: 'Ajouter', exact: true });
        expect(await submit.isEnabled()).toBe(false);
        await check(manager, 'users-accountant-organisation');
        await choose(dialog, 'Organisation', 'Ananas Export SA');
      },
    );
    await manager.close();
  });

  it('the SFD manages its organisation’s staff: staff roles only, edit and delete icons', async () => {
    const sfd = await signIn('sfd@demo.filiere.bj');
    await sfd.getByTestId('users-empty').waitFor();
    await sfd.getByText("Vous n'avez aucun utilisateur disponible actuellement").waitFor();
    await sfd.getByRole('button', { name: 'Ajouter un utilisateur' }).first().click();
    const dialog = sfd.getByRole('dialog', { name: 'Ajouter un utilisateur' });
    await select(dialog, 'Rôle').click();
    await sfd.getByRole('option', { name: 'Secrétaire', exact: true }).waitFor();
    expect((await sfd.getByRole('option').allTextContents()).sort()).toEqual([
      'Comptable',
      'Directeur',
      'Secrétaire',
    ]);
    await sfd.keyboard.press('Escape');
    // Its staff belong to its organisation and cluster: no such selects.
    expect(await select(dialog, 'Cluster').count()).toBe(0);
    expect(await select(dialog, 'Organisation').count()).toBe(0);
    await check(sfd, 'users-sfd-add');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await addEditDelete(sfd, 'SFD', {
      lastname: 'Sossou',
      firstname: 'Nadège',
      email: 'nadege.sossou@alafia.bj',
      role: 'Comptable',
    });
    await sfd.close();
  });

  it('a self-registered cluster manager is told it has no cluster until the super admin gives it one', async () => {
    const { email } = await seedUser(server.db.db, 'ROLE_CLUSTER_MANAGER', {
      email: 'nouveau.gestionnaire@exemple.bj',
    });
    const manager = await signIn(email, TEST_PASSWORD);
    const notice = manager.getByTestId('users-missing-scope');
    await notice.getByText('Aucun cluster ne vous est attribué').waitFor();
    expect(await manager.getByRole('table').count()).toBe(0);
    expect(await manager.getByRole('button', { name: 'Ajouter un utilisateur' }).count()).toBe(0);
    await check(manager, 'users-no-cluster');

    // The super admin edits it and picks its cluster.
    const page = superAdmin;
    await search(page, email);
    const row = page.getByRole('button', { name: /^Modifier Prénom\d+ Nom\d+$/ });
    await row.click();
    const edit = page.getByRole('dialog', { name: 'Modifier un utilisateur' });
    await choose(edit, 'Cluster', 'Cluster Allada');
    await edit.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Mise à jour effectuée avec succès').first().waitFor();

    await manager.reload();
    await manager.getByRole('table').waitFor();
    expect(await manager.getByTestId('users-missing-scope').count()).toBe(0);
    await manager.close();
  });

  it('an invitation link replaced by a newer mail says it is dead before any password is typed', async () => {
    // A user the super admin adds gets an invitation; a resend kills that first link.
    const email = 'lien.mort@exemple.bj';
    const page = superAdmin;
    await page.getByRole('button', { name: 'Ajouter un utilisateur' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter un utilisateur' });
    await dialog.getByLabel(/^Nom/).fill('Mort');
    await dialog.getByLabel(/^Prénoms/).fill('Lien');
    await dialog.getByLabel(/^Email/).fill(email);
    await dialog.getByLabel(/^Téléphone/).fill('0197005566');
    await choose(dialog, 'Rôle', 'Producteur');
    await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await dialog.getByRole('button', { name: 'Terminer' }).click();
    const first = await server.mail.linkTo(email, '/auth/signup-invitation');
    const resend = await fetch(`${server.baseUrl}/api/users/invitation/resend`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(resend.status).toBe(200);
    await expect
      .poll(async () => (await server.mail.linkTo(email, '/auth/signup-invitation')).href)
      .not.toBe(first.href);

    const invited = await newPage(browser);
    await invited.goto(server.baseUrl + first.pathname + first.search);
    await invited.getByTestId('dead-link').waitFor();
    await invited.getByText('Ce lien n’est plus valable').waitFor();
    expect(await invited.getByLabel(/^Mot de passe/).count()).toBe(0);
    await check(invited, 'set-password-dead-link');
    await invited.getByRole('button', { name: 'Recevoir un nouveau lien' }).click();
    await invited.getByText(`Un nouveau lien a été envoyé à ${email}`).waitFor();
    // The newest link opens the form.
    const latest = await server.mail.linkTo(email, '/auth/signup-invitation');
    await invited.goto(server.baseUrl + latest.pathname + latest.search);
    await invited.getByLabel(/^Mot de passe/).waitFor();
    expect(await invited.getByTestId('dead-link').count()).toBe(0);
    // Created by the super admin, the account is active: it may sign in at once.
    await invited.getByLabel(/^Mot de passe/).fill('Alafia#2026');
    await invited.getByLabel('Confirmation du mot de passe').fill('Alafia#2026');
    await invited.getByRole('button', { name: 'Valider' }).click();
    const done = invited.getByTestId('password-set');
    await done
      .getByText('Mot de passe défini. Votre compte est actif : vous pouvez vous connecter.')
      .waitFor();
    expect(await done.getByText(/administrateur/).count()).toBe(0);
    await check(invited, 'set-password-active');
    await invited.close();
  });

  it('the language menu marks the language in use', async () => {
    const page = superAdmin;
    /** The menu entry that carries the tick, and the one `aria-current` names. */
    const marked = async () => {
      await page.getByTestId('profile-block').click();
      const ticked = page.getByRole('menuitem').filter({ has: page.getByTestId('lang-current') });
      await ticked.waitFor();
      const current = page.locator('[role="menuitem"][aria-current="true"]');
      const answer = [await ticked.getAttribute('lang'), await current.getAttribute('lang')];
      await page.keyboard.press('Escape');
      return answer;
    };
    expect(await marked()).toEqual(['fr', 'fr']);
    await page.getByTestId('profile-block').click();
    await page.getByTestId('lang-en').click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    expect(await marked()).toEqual(['en', 'en']);
    await page.getByTestId('profile-block').click();
    await page.getByTestId('lang-fr').click();
    await page.getByRole('heading', { name: 'Utilisateurs' }).waitFor();
  });
});
