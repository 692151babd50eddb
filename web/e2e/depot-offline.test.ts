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
import { apiToken, signedInPage } from './support/session.js';

const missing = browserMissingReason();

/** Today in Porto-Novo (UTC+1): the day the API and the browsers count in. */
function beninToday(): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Africa/Porto-Novo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

/**
 * The depot without network (docs/seasons.md, 'Offline at the depot'): the demo input provider
 * opens 'Demandes d'intrants' with network (the service worker installs, the phone keeps its
 * requests with their codes' checks); the network is cut; the page reloads from the service
 * worker; three deliveries are recorded by code and a wrong code is refused on the phone; a
 * fourth delivery is recorded while the aggregator delivers that request himself; the queue
 * survives a reload; the network returns: exactly three deliveries by the provider, each once,
 * and the fourth refused with the server's reason, shown until dismissed; a wrong code is
 * refused online too. At the buying centre (docs/contracts.md, 'Offline at the scale'): the
 * aggregator's phone keeps its day with network; the network is cut and the page reloads; three
 * weighings are recorded by the grower's code with the figures computed on the phone, an unknown
 * code finds nobody; the queue survives a reload; another scale weighs the third contract online
 * meanwhile; the network returns: the two others delivered and settled, each once, the third
 * refused with the server's reason until dismissed; an unknown code finds nobody online either.
 * axe-clean at 390 px.
 */
describe.skipIf(missing !== null)('offline deliveries at the depot', { timeout: 600_000 }, () => {
  explainFailures();
  pollLikePages();
  let server: E2eServer;
  let browser: Browser;
  let aggregatorToken = '';
  let scaleToken = '';
  const requests: { id: number; code: string; reference: string }[] = [];
  /** Three contracts ready for the scale, with their grower's code. */
  const weighings: { id: string; reference: string; growerCode: string }[] = [];

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

    // Three contracts of the demo grower, confirmed by him, ready for the scale: two to weigh
    // offline, one weighed meanwhile online by another scale (the queued one is then refused).
    scaleToken = await apiToken(server.baseUrl, 'agregateur@demo.filiere.bj', server.password);
    const growerUser = await findDemoUser(server.db.db, 'producteur@demo.filiere.bj');
    const grower = await db()
      .selectFrom('growers')
      .select(['id', 'reference'])
      .where('user_id', '=', growerUser.id)
      .executeTakeFirstOrThrow();
    const plot = await db()
      .selectFrom('plots')
      .select('id')
      .where('grower_id', '=', grower.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const growerToken = server.app.jwt.sign({ sub: growerUser.id, role: 'ROLE_GROWER' });
    for (const n of [1, 2, 3]) {
      const created = await callApi<{ contractId: string; reference: string }>(
        scaleToken,
        '/contracts/delivery-contract',
        { growerId: grower.id, productId: plot.id, quantity: n, amount: 40_000 * n },
      );
      const confirmed = await fetch(
        `${server.baseUrl}/api/contracts/delivery-contract/${created.contractId}/confirm`,
        { method: 'PATCH', headers: { authorization: `Bearer ${growerToken}` } },
      );
      expect(confirmed.status, await confirmed.text()).toBeLessThan(300);
      weighings.push({
        id: created.contractId,
        reference: created.reference,
        growerCode: grower.reference,
      });
    }
    // The scale keeps what the read side shows: wait until it shows the three confirmed.
    const keptIds = async () => {
      const day = (await (
        await fetch(`${server.baseUrl}/api/contracts/collection/offline-day`, {
          headers: { authorization: `Bearer ${scaleToken}` },
        })
      ).json()) as { growers: { contracts: { id: string }[] }[] };
      const kept = new Set(day.growers.flatMap((g) => g.contracts.map((c) => c.id)));
      return weighings.filter((w) => kept.has(w.id)).length;
    };
    for (let tries = 0; tries < 600 && (await keptIds()) < 3; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await keptIds()).toBe(3);
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

  const contractEvents = async (contractId: string) =>
    db()
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `contract-${contractId}`)
      .where('type', 'in', ['DeliveryRecorded', 'DeliveryContractSettled'])
      .execute();

  /** Finds the grower by his code on the scale's phone and picks the contract. */
  const weighOffline = async (page: Page, w: (typeof weighings)[0], kilograms: number) => {
    await page.getByLabel('Code du producteur ou téléphone').fill(w.growerCode);
    await page.getByRole('button', { name: 'Rechercher' }).click();
    await page.getByRole('button', { name: `Peser pour le contrat ${w.reference}` }).click();
    await page.getByLabel('Poids pesé (kg)').fill(String(kilograms));
    // The figures, computed on the phone by the server's rule.
    await page.getByText('Net au producteur').waitFor();
    await page.getByText('Calculé sur ce téléphone ; le paiement est fait à l’envoi.').waitFor();
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
  it('three weighings at the scale offline, a reload, the network back: two settled, each once; the one weighed meanwhile refused', async () => {
    // The buying centre's phone opens the scale with network: the service worker installs
    // and the phone keeps the day.
    const scale = await signedInPage(
      browser,
      server.baseUrl,
      'agregateur@demo.filiere.bj',
      server.password,
      '/centre-de-collecte',
      { viewport: { width: 390, height: 844 }, serviceWorkers: 'allow' },
    );
    await expect
      .poll(() =>
        scale.evaluate(
          async () => (await navigator.serviceWorker.getRegistration())?.active?.state,
        ),
      )
      .toBe('activated');
    const kept = scale.getByTestId('collection-ready');
    await expect.poll(() => kept.textContent()).toMatch(/producteurs gardés sur ce téléphone/);
    await check(scale, 'scale-online-390');

    await scale.context().setOffline(true);
    await scale.reload();
    await scale.getByTestId('offline-banner').waitFor();
    await expect.poll(() => kept.textContent()).toMatch(/producteurs gardés sur ce téléphone/);
    for (const [i, w] of weighings.entries()) {
      await weighOffline(scale, w, 500 + i * 100);
      if (i === 0) await check(scale, 'scale-offline-weigh-390');
      await scale.getByRole('button', { name: 'Enregistrer la pesée' }).click();
      await scale.getByText('Pesée enregistrée').waitFor();
      if (i === 0) await check(scale, 'scale-offline-recorded-390');
      await scale.getByRole('button', { name: 'Nouvelle pesée' }).click();
      await scale.getByText(`En attente d’envoi (${i + 1})`).waitFor();
    }
    // A queued contract is not offered again.
    await scale.getByLabel('Code du producteur ou téléphone').fill(weighings[0]!.growerCode);
    await scale.getByRole('button', { name: 'Rechercher' }).click();
    await scale.getByText('Aucun contrat prêt pour la livraison avec ce producteur.').waitFor();
    // A code the phone does not keep finds nobody: nothing can be weighed.
    await scale.getByLabel('Code du producteur ou téléphone').fill('PRD-999999');
    await scale.getByRole('button', { name: 'Rechercher' }).click();
    await scale.getByText('Aucun producteur de votre cluster ne correspond.').waitFor();
    await check(scale, 'scale-offline-unknown-390');

    // The queue survives a reload without network; nothing was sent.
    await scale.reload();
    await scale.getByText('En attente d’envoi (3)').waitFor();
    await check(scale, 'scale-offline-pending-390');
    for (const w of weighings) expect(await contractEvents(w.id)).toHaveLength(0);
    // Meanwhile another scale, online, weighs the third contract.
    const late = weighings[2]!;
    await callApi(scaleToken, '/contracts/collection/weighings', {
      contractId: late.id,
      kilograms: 1500,
      grade: 'B',
      weighedOn: beninToday(),
    });

    await scale.context().setOffline(false);
    const queue = scale.getByTestId('collection-queue');
    await queue.getByText('Envoyées (2)').waitFor();
    await queue.getByText('La livraison de ce contrat est déjà enregistrée').waitFor();
    await check(scale, 'scale-offline-sent-390');
    expect(await queue.getByText(/En attente d’envoi/).count()).toBe(0);
    // Each contract delivered and settled once: the two queued by the phone, the third by the
    // other scale (its weight, not the refused one's).
    for (const w of weighings) {
      expect((await contractEvents(w.id)).map((e) => e.type).sort(), w.reference).toEqual([
        'DeliveryContractSettled',
        'DeliveryRecorded',
      ]);
    }
    const recorded = await db()
      .selectFrom('events')
      .select('data')
      .where('stream_id', '=', `contract-${late.id}`)
      .where('type', '=', 'DeliveryRecorded')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(recorded.data)).toContain('1500');

    // Dismissed, the refusal leaves; a reload does not bring it back.
    await queue.getByRole('button', { name: 'J’ai compris' }).click();
    await queue.getByText('La livraison de ce contrat est déjà enregistrée').waitFor({
      state: 'detached',
    });
    await scale.reload();
    await expect.poll(() => kept.textContent()).toMatch(/producteurs gardés sur ce téléphone/);
    expect(await queue.getByText('Pesée refusée').count()).toBe(0);

    // Online, the server finds nobody with a wrong code either.
    await scale.getByLabel('Code du producteur ou téléphone').fill('PRD-999999');
    await scale.getByRole('button', { name: 'Rechercher' }).click();
    await scale.getByText('Aucun producteur de votre cluster ne correspond.').waitFor();
    await check(scale, 'scale-online-unknown-390');
  });
});

/** The label of the one refused delivery, as the panel shows it. */
async function refusedLabel(page: Page): Promise<string> {
  const title = page.getByTestId('depot-refused').locator('.mantine-Alert-title');
  return (await title.textContent())!.trim();
}
