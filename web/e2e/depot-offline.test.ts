import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { narrowDb } from '@filiere/platform';
import type { Database } from '@filiere/api';
import { findDemoUser } from '@filiere/api/identity';
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

/**
 * The depot without network (docs/seasons.md, 'Offline at the depot'): the demo input provider
 * opens 'Demandes d'intrants' with network (the service worker installs, the phone keeps its
 * requests with their codes' checks); the network is cut; the page reloads from the service
 * worker; three deliveries are recorded by code and a wrong code is refused on the phone; a
 * fourth delivery is recorded while the aggregator delivers that request himself; the queue
 * survives a reload; the network returns: exactly three deliveries by the provider, each once,
 * and the fourth refused with the server's reason, shown until dismissed; a wrong code is
 * refused online too. axe-clean at 390 px.
 */
describe.skipIf(missing !== null)('offline deliveries at the depot', { timeout: 600_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let aggregatorToken = '';
  const requests: { id: number; code: string; reference: string }[] = [];

  const db = () => narrowDb<Database>()(server.db.db);
  const callApi = async <T>(token: string, path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${server.baseUrl}/api${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'idempotency-key': randomUUID(),
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `POST ${path}: ${text}`).toBeLessThan(300);
    return JSON.parse(text) as T;
  };
  const deliveredEvents = async (requestId: number) =>
    db()
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'InputDelivered')
      .where('stream_id', '=', `seasonrequest-${requestId}`)
      .execute();

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
    const aggregator = await findDemoUser(server.db.db, 'agregateur@demo.filiere.bj');
    aggregatorToken = server.app.jwt.sign({ sub: aggregator.id, role: 'ROLE_INDUSTRIAL' });
    const season = await db()
      .selectFrom('seasons')
      .select('id')
      .where('is_active', '=', true)
      .where('archived', '=', false)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const growers = await db()
      .selectFrom('growers as g')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select(['g.id', 'g.user_id'])
      .where('g.cluster_id', '=', aggregator.clusterId!)
      .where('g.deactivated_at', 'is', null)
      .where('u.is_active', '=', true)
      .orderBy('g.reference')
      .limit(4)
      .execute();
    expect(growers).toHaveLength(4);
    // Four NPK requests (the demo provider's line), filed by the growers, accepted by the
    // aggregator: each gets its code.
    const ids: number[] = [];
    for (const grower of growers) {
      const token = server.app.jwt.sign({ sub: grower.user_id, role: 'ROLE_GROWER' });
      const filed = await callApi<{ requestId?: number; id?: number }>(token, '/season-requests', {
        seasonId: season.id,
        growerId: grower.id,
        type: 'INPUT',
        fertilizerId: 1,
        quantity: 5,
      });
      ids.push(Number(filed.requestId ?? filed.id));
    }
    await callApi(aggregatorToken, '/user-cluster-grower/accept-requests', { ids });
    // The read side follows the acceptance a moment later.
    for (let tries = 0; tries < 600; tries++) {
      const coded = await db()
        .selectFrom('season_requests')
        .select('id')
        .where('id', 'in', ids)
        .where('code', 'is not', null)
        .execute();
      if (coded.length === 4) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const rows = await db()
      .selectFrom('season_requests')
      .select(['id', 'code', 'reference'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(rows.every((r) => r.code)).toBe(true);
    requests.push(...rows.map((r) => ({ id: r.id, code: r.code!, reference: r.reference })));
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const check = async (page: Page, name: string) => {
    await screenshot(page, name);
    expect(await seriousViolations(page), name).toEqual([]);
  };

  const recordOffline = async (page: Page, digits: string) => {
    await page.getByRole('button', { name: 'Livrer un producteur' }).click();
    const dialog = page.getByRole('dialog', { name: 'Livrer un producteur (hors ligne)' });
    await dialog.getByRole('textbox', { name: 'Code du producteur (6 chiffres)' }).fill(digits);
    await dialog.getByRole('button', { name: 'Vérifier le code' }).click();
    return dialog;
  };

  it('three deliveries and a wrong code offline, a reload, the network back: three deliveries, each once; the refusal shown', async () => {
    const page = await signedInPage(
      browser,
      server.baseUrl,
      'fournisseur@demo.filiere.bj',
      server.password,
      '/demande',
      { viewport: { width: 390, height: 844 }, serviceWorkers: 'allow' },
    );
    await expect
      .poll(() =>
        page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state),
      )
      .toBe('activated');
    const ready = page.getByTestId('depot-ready');
    await expect.poll(() => ready.textContent()).toMatch(/demandes à livrer gardées/);
    for (const r of requests) {
      // The phone keeps the requests, never their codes.
      expect(await page.evaluate(() => document.body.innerText)).not.toContain(r.code);
    }

    await page.context().setOffline(true);
    await page.reload();
    await page.getByTestId('offline-banner').waitFor();
    await expect.poll(() => ready.textContent()).toMatch(/demandes à livrer gardées/);

    const [first, second, third, fourth] = requests as [
      (typeof requests)[0],
      (typeof requests)[0],
      (typeof requests)[0],
      (typeof requests)[0],
    ];
    for (const [i, r] of [first, second, third].entries()) {
      const dialog = await recordOffline(page, r.code.slice(4));
      await dialog.getByText(r.reference).waitFor();
      await dialog.getByRole('button', { name: 'Enregistrer la livraison' }).click();
      await dialog
        .getByText('Livraison enregistrée : elle sera envoyée dès le retour du réseau.')
        .waitFor();
      if (i === 0) await check(page, 'depot-recorded-390');
      await dialog.getByRole('button', { name: 'Fermer' }).last().click();
      await page.getByText(`En attente d'envoi (${i + 1})`).waitFor();
    }

    // A wrong code is refused on the phone: nothing queued.
    const wrongCode = ['000000', '999999', '123123'].find(
      (c) => !requests.some((r) => r.code === `AGW_${c}`),
    )!;
    const wrong = await recordOffline(page, wrongCode);
    await wrong.getByText('Le code du producteur que vous avez saisi est incorrect').waitFor();
    await check(page, 'depot-wrong-code-390');
    await page.keyboard.press('Escape');
    await wrong.waitFor({ state: 'detached' });

    // A fourth recorded offline, while the aggregator delivers that request himself.
    const dialog = await recordOffline(page, fourth.code.slice(4));
    await dialog.getByRole('button', { name: 'Enregistrer la livraison' }).click();
    await dialog.getByRole('button', { name: 'Fermer' }).last().click();
    await page.getByText("En attente d'envoi (4)").waitFor();
    await callApi(aggregatorToken, `/input-provider/make-delivery/${fourth.id}`, {
      code: fourth.code,
    });

    // The queue survives a reload without network; nothing was sent.
    await page.reload();
    await page.getByText("En attente d'envoi (4)").waitFor();
    await check(page, 'depot-pending-390');
    for (const r of [first, second, third]) expect(await deliveredEvents(r.id)).toHaveLength(0);

    await page.context().setOffline(false);
    await page.getByTestId('depot-pending').waitFor({ state: 'detached' });
    const refused = page.getByTestId('depot-refused');
    await refused.getByText('Ces intrants ont déjà été livrés').waitFor();
    await refused.getByText(new RegExp(fourth.reference)).waitFor();
    await check(page, 'depot-refused-390');

    const provider = await findDemoUser(server.db.db, 'fournisseur@demo.filiere.bj');
    for (const r of [first, second, third]) {
      const events = await deliveredEvents(r.id);
      expect(events, r.reference).toHaveLength(1);
      expect(JSON.stringify(events[0]!.data)).toContain(provider.id);
    }
    expect(await deliveredEvents(fourth.id)).toHaveLength(1);

    // Dismissed, the refusal leaves; a reload does not bring it back.
    await refused
      .getByRole('button', { name: `Retirer ${await refusedLabel(page)} de la liste` })
      .click();
    await refused.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('depot-ready').waitFor();
    expect(await page.getByTestId('depot-refused').count()).toBe(0);

    // Online, a wrong code is refused by the server.
    await page.getByRole('button', { name: 'Livrer un producteur' }).click();
    const online = page.getByRole('dialog');
    await online.getByRole('textbox', { name: 'Code du producteur' }).fill(`AGW_${wrongCode}`);
    await online.getByRole('button', { name: 'Rechercher' }).click();
    await online.getByText('Le code du producteur que vous avez saisi est incorrect').waitFor();
    await check(page, 'depot-wrong-code-online-390');
  });
});

/** The label of the one refused delivery, as the panel shows it. */
async function refusedLabel(page: Page): Promise<string> {
  const title = page.getByTestId('depot-refused').locator('.mantine-Alert-title');
  return (await title.textContent())!.trim();
}
