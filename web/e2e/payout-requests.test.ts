import { mkdirSync } from 'node:fs';
import { sql } from 'kysely';
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

/** What zod says in English when nobody translated it: must never reach the page. */
const ZOD_ENGLISH = /Invalid input|expected string|received number/;

interface DemoGrower {
  growerId: string;
  userId: string;
  name: string;
  momo: string;
}

/**
 * The four-eyes change of a grower's payout account: the cluster manager asks for
 * a new account from the grower's page ('Demander un changement'); nothing changes yet and
 * both numbers get an SMS; the super admin approves it on 'Demandes de changement de compte'
 * (Gestion), then the account is the new one. A super admin's own request shows that another
 * must decide it (no Approuver / Rejeter). Every screen axe-checked.
 */
describe.skipIf(missing !== null)(
  'payout account requests in Chromium',
  { timeout: 240_000 },
  () => {
    explainFailures();
    pollLikePages();
    let server: E2eServer;
    let browser: Browser;
    let growers: DemoGrower[];

    beforeAll(async () => {
      mkdirSync(screenshotDir, { recursive: true });
      server = await startE2eServer();
      browser = await launchBrowser();
      // Two demo growers of the cluster manager's cluster, paid on mobile money.
      const rows = await sql<{
        grower_id: string;
        user_id: string;
        firstname: string;
        lastname: string;
        momo: string;
      }>`select g.id as grower_id, u.id as user_id, u.firstname, u.lastname,
              u.momo_account_number as momo
         from growers g
         join users u on u.id = g.user_id
         join users m on m.cluster_id = u.cluster_id
        where m.email = 'gestionnaire@demo.filiere.bj'
          and u.momo_account_number is not null and u.deleted_at is null and u.is_active
          and not exists (select 1 from payout_requests p where p.user_id = u.id)
        order by u.lastname, u.firstname
        limit 2`.execute(server.db.db);
      growers = rows.rows.map((r) => ({
        growerId: r.grower_id,
        userId: r.user_id,
        name: `${r.firstname} ${r.lastname}`,
        momo: r.momo,
      }));
      expect(growers).toHaveLength(2);
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    /** Signed in through the API (the login form is identity.test.ts's subject). */
    const signIn = (email: string, target: string): Promise<Page> =>
      signedInPage(browser, server.baseUrl, email, server.password, target);

    /** axe: no serious or critical violation; and a screenshot for review. */
    const check = async (page: Page, name: string) => {
      await page.waitForLoadState('networkidle');
      await screenshot(page, name);
      expect(await seriousViolations(page), name).toEqual([]);
    };

    const account = async (userId: string) =>
      (
        await sql<{ momo: string | null; bank_name: string | null; bank_account: string | null }>`
        select momo_account_number as momo, bank_name, bank_account_number as bank_account
          from users where id = ${userId}`.execute(server.db.db)
      ).rows[0]!;
    const smsTo = async (recipient: string) =>
      (
        await sql<{
          text: string;
        }>`select text from sms_outbox where recipient = ${recipient}`.execute(server.db.db)
      ).rows.map((r) => r.text);

    /** From the grower's page: 'Demander un changement', the new account, 'Envoyer la demande'. */
    async function requestFrom(page: Page, grower: DemoGrower, momo: string, bank?: string) {
      await page.goto(`${server.baseUrl}/producteurs/show/${grower.growerId}`);
      await page.getByRole('button', { name: 'Demander un changement' }).click();
      const dialog = page.getByRole('dialog', {
        name: 'Demander un changement de compte de paiement',
      });
      await dialog.waitFor();
      const momoInput = dialog.getByLabel(/^Nouveau numéro mobile money/);
      // The current account is prefilled: sending it unchanged is refused in French.
      await dialog.getByRole('button', { name: 'Envoyer la demande' }).click();
      await dialog.getByText('Le nouveau compte est identique au compte actuel').waitFor();
      await momoInput.fill('12');
      await momoInput.blur();
      await dialog
        .getByText('Numéro de téléphone invalide (8 chiffres, ou 10 chiffres commençant par 01)')
        .waitFor();
      await momoInput.fill(momo);
      if (bank) {
        // Whatever bank the grower has now: the bank chosen, its account number left empty.
        const bankAccount = dialog.getByLabel(/^Numéro de compte bancaire/);
        await bankAccount.fill('');
        const bankSelect = dialog.getByLabel(/^Banque/);
        await bankSelect.click();
        await page.getByRole('option', { name: 'Ecobank Bénin', exact: true }).click();
        await expect.poll(() => bankSelect.inputValue()).toBe('Ecobank Bénin');
        await dialog.getByRole('button', { name: 'Envoyer la demande' }).click();
        // A bank without its account number: said on the field.
        await dialog
          .getByText('Indiquez la banque et le numéro de compte, ou aucun des deux')
          .waitFor();
        await bankAccount.fill(bank);
      }
      expect(await dialog.textContent()).not.toMatch(ZOD_ENGLISH);
      return dialog;
    }

    it('the cluster manager asks, the super admin approves, then the grower is paid on the new account', async () => {
      const [grower] = growers;
      const manager = await signIn('gestionnaire@demo.filiere.bj', '/producteurs');
      const dialog = await requestFrom(manager, grower!, '0166554477', 'BJ066 01001 0001234');
      await check(manager, 'payout-request-modal');
      await dialog.getByRole('button', { name: 'Envoyer la demande' }).click();
      await manager
        .getByText('Demande envoyée : elle attend l’approbation d’un super administrateur')
        .waitFor();
      await dialog.waitFor({ state: 'detached' });

      // Nothing changes before approval; the old and the new number are told.
      expect((await account(grower!.userId)).momo).toBe(grower!.momo);
      expect(await smsTo(grower!.momo)).toHaveLength(1);
      expect(await smsTo('+2290166554477')).toHaveLength(1);

      // The cluster manager has no such page; the super admin finds it under Gestion.
      const superAdmin = await signIn('superadmin@demo.filiere.bj', '/utilisateurs');
      const nav = superAdmin.getByRole('navigation', { name: 'Menu principal' });
      await nav.getByRole('link', { name: 'Demandes de changement de compte' }).click();
      await superAdmin.waitForURL((url) => url.pathname === '/admin/demandes-compte');
      await superAdmin.getByRole('heading', { name: 'Demandes de changement de compte' }).waitFor();
      await superAdmin
        .getByRole('cell', { name: new RegExp(grower!.name) })
        .first()
        .waitFor();
      await check(superAdmin, 'payout-requests-page');

      await superAdmin
        .getByRole('button', { name: `Approuver la demande de ${grower!.name}` })
        .click();
      const approve = superAdmin.getByRole('dialog', { name: 'Approuver le changement de compte' });
      await approve.getByText('0166554477').waitFor();
      await check(superAdmin, 'payout-approve-modal');
      await approve.getByRole('button', { name: 'Approuver', exact: true }).click();
      await superAdmin.getByText('Changement de compte approuvé').waitFor();
      await superAdmin.getByText('Approuvée', { exact: true }).first().waitFor();

      expect(await account(grower!.userId)).toEqual({
        momo: '+2290166554477',
        bank_name: 'Ecobank Bénin',
        bank_account: 'BJ066 01001 0001234',
      });
      expect(await smsTo(grower!.momo)).toHaveLength(2);
      expect(await smsTo('+2290166554477')).toHaveLength(2);

      // The grower's page now shows the new account.
      await manager.goto(`${server.baseUrl}/producteurs/show/${grower!.growerId}`);
      await manager.getByText('0166554477').first().waitFor();
      await manager.close();
    });

    it('a super admin’s own request waits for another super admin, who rejects it with a reason', async () => {
      const [, grower] = growers;
      const superAdmin = await signIn('superadmin@demo.filiere.bj', '/producteurs');
      const dialog = await requestFrom(superAdmin, grower!, '0166998877');
      await dialog.getByRole('button', { name: 'Envoyer la demande' }).click();
      await dialog.waitFor({ state: 'detached' });

      await superAdmin.goto(
        `${server.baseUrl}/admin/demandes-compte?q=${encodeURIComponent(grower!.name)}`,
      );
      const row = superAdmin.getByRole('row', { name: new RegExp(grower!.name) }).first();
      await row.getByText('Votre demande : un autre super administrateur la traite').waitFor();
      expect(await row.getByRole('button', { name: /Approuver|Rejeter/ }).count()).toBe(0);

      // A second super admin (seeded) rejects it: the reason is required.
      await sql`insert into users (firstname, lastname, email, username, phone, password_hash, role_id, is_active)
      select 'Ablavi', 'Zinsou', 'superadmin2@test.filiere.bj', 'superadmin2@test.filiere.bj',
             '+2290197000777', password_hash, role_id, true
        from users where email = 'superadmin@demo.filiere.bj'`.execute(server.db.db);
      const other = await signIn('superadmin2@test.filiere.bj', '/utilisateurs');
      await other.goto(`${server.baseUrl}/admin/demandes-compte?status=PENDING`);
      await other.getByRole('button', { name: `Rejeter la demande de ${grower!.name}` }).click();
      const reject = other.getByRole('dialog', { name: 'Rejeter la demande' });
      await reject.getByRole('button', { name: 'Rejeter', exact: true }).click();
      await reject.getByText('Ce champ est obligatoire').waitFor();
      await reject.getByLabel(/^Motif du rejet/).fill('Numéro non vérifié auprès du producteur');
      await check(other, 'payout-reject-modal');
      await reject.getByRole('button', { name: 'Rejeter', exact: true }).click();
      await other.getByText('Demande rejetée : le compte reste inchangé').waitFor();
      expect((await account(grower!.userId)).momo).toBe(grower!.momo);
    });
  },
);
