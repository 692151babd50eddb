import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { beninDay, narrowDb } from '@filiere/platform';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { clustersDemoStep } from '../../actors/clusters/demo/clusters.js';
import { cooperativesDemoStep } from '../../actors/cooperatives/demo/cooperatives.js';
import { growersDemoStep } from '../../actors/growers/demo/growers.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { DEMO_SECOND_AGGREGATOR, findDemoUser, userLoader } from '../../identity/index.js';
import { bearer } from '../../identity/test-support.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { product } from '../../modules.js';
import { buildTestApp } from '../../test-app.js';
import { useDemoStepsDatabase } from '../../test-demo-database.js';
import { walletDemoStep } from '../../wallet/demo/wallet.js';
import { debtRecoveriesProjector } from '../advances/read-model/projector.js';
import { contractsDemoStep } from '../demo/contracts.js';
import { contractsProjector } from '../read-model/index.js';
import { renderGrowerCardPdf } from './card-pdf.js';
import { signPdfLink } from './links.js';
import { renderGrowerStatementPdf } from './statement-pdf.js';
import { GrowerStatements, type GrowerStatementTables } from './statement.js';
import { decodePrintedQr, pdfPageCount, pdfText } from './test-support.js';

/**
 * The grower's statement (relevé) on a real PostgreSQL with the contracts demo: the signed
 * link for the grower (its own, `me`), its cooperative and its cluster's aggregator; 403 for
 * the others; the PDF it serves; and what it prints — the contracts of the period, the debt
 * the completed contract recovered and the net paid.
 */
describe('grower statement PDF', () => {
  // The demo's identity, wallet, actors and contracts, one template for this file and the
  // other contract PDF file (receipt.test.ts, statement.test.ts).
  const testDb = useDemoStepsDatabase([
    identityDemoStep,
    walletDemoStep,
    clustersDemoStep,
    cooperativesDemoStep,
    growersDemoStep,
    contractsDemoStep,
  ]);
  let app: FastifyInstance;
  let aggregator: SignedInUser;
  let stranger: SignedInUser;
  let grower: SignedInUser;
  let otherGrower: SignedInUser;
  let cooperative: SignedInUser | undefined;
  let growerId: string;
  let completed: { reference: string; grower_net: number | null; recovered_amount: number | null };
  const today = beninDay(new Date());

  beforeAll(async () => {
    const decode = catalogueDecoder(product.catalogue);
    await catchUp(testDb.db, contractsProjector, { decode });
    await catchUp(testDb.db, debtRecoveriesProjector, { decode });
    app = await buildTestApp(testDb.db);
    await app.ready();
    const load = userLoader(testDb.db);
    aggregator = (await load((await findDemoUser(testDb.db, 'agregateur@demo.filiere.bj')).id))!;
    stranger = (await load((await findDemoUser(testDb.db, DEMO_SECOND_AGGREGATOR)).id))!;
    const row = await testDb.db
      .selectFrom('delivery_contracts as dc')
      .innerJoin('growers as g', 'g.id', 'dc.grower_id')
      .leftJoin('cooperatives as c', 'c.organization_id', 'g.cooperative_id')
      .select([
        'dc.reference',
        'dc.grower_net',
        'dc.recovered_amount',
        'dc.grower_id',
        'dc.grower_user_id',
        'c.user_id as cooperative_user_id',
      ])
      .where('dc.status', '=', 'COMPLETED')
      .executeTakeFirstOrThrow();
    completed = row;
    growerId = row.grower_id;
    grower = (await load(row.grower_user_id))!;
    cooperative = row.cooperative_user_id ? await load(row.cooperative_user_id) : undefined;
    const other = await testDb.db
      .selectFrom('growers')
      .select('user_id')
      .where('id', '!=', growerId)
      .executeTakeFirstOrThrow();
    otherGrower = (await load(other.user_id))!;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  const get = (who: SignedInUser | undefined, url: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: who ? bearer(app, who, who.role_code) : {},
    });

  it('gives the grower (me) a signed link serving its statement PDF without the access token', async () => {
    const res = await get(grower, '/api/contracts/statement-download/me');
    expect(res.statusCode).toBe(200);
    const { url } = res.json<{ url: string }>();
    expect(url).toMatch(/^\/api\/contracts\/pdf\/s-[0-9a-f]{32}-\d{8}-\d{8}-[0-9a-z]+\.[\w-]{22}$/);
    expect(url.split('/').pop()!.length).toBeLessThan(100);
    expect(url).toContain(`-${today.slice(0, 4)}0101-${today.replace(/-/g, '')}-`);
    const pdf = await app.inject({ method: 'GET', url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/releve-PRD-\d+-\d{4}-01-01-/);
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('prints the period’s contracts, the debt recovered and the net paid', async () => {
    const statements = new GrowerStatements(
      narrowDb<GrowerStatementTables>()(testDb.db),
      testDb.db,
      'x'.repeat(40),
    );
    const data = await statements.data(growerId, { from: '2000-01-01', to: today });
    expect(data.contracts.map((c) => c.reference)).toContain(completed.reference);
    expect(data.totals.netPaid).toBe(110_000);
    expect(data.totals.recovered).toBe(40_000);
    expect(data.recoveries).toEqual([
      expect.objectContaining({
        kind: 'AVANCE_SUR_ANANAS',
        contractReference: completed.reference,
        amount: 40_000,
      }),
    ]);
    const text = pdfText(await renderGrowerStatementPdf(data, { compress: false }));
    expect(text).toContain('Relevé du producteur');
    expect(text).toContain(completed.reference);
    expect(text).toContain(`${grower.firstname} ${grower.lastname}`);
    expect(text).toContain('110 000 F CFA');
    expect(text).toContain('40 000 F CFA');
    expect(text).toContain('Avance sur ananas');
    expect(text).toMatch(/AVA-[0-9A-F]{8}/);
    expect(text).toContain('Terminé');

    // A period before every contract: nothing of it.
    const empty = await statements.data(growerId, { from: '2001-01-01', to: '2001-12-31' });
    expect(empty.contracts).toEqual([]);
    expect(empty.totals.netPaid).toBe(0);
    const emptyText = pdfText(await renderGrowerStatementPdf(empty, { compress: false }));
    expect(emptyText).toContain('Aucun contrat de livraison sur la période.');
    expect(emptyText).not.toContain(completed.reference);
  });

  it('reaches the grower, its cooperative, its cluster’s aggregator and the admins only', async () => {
    const url = `/api/contracts/statement-download/${growerId}?from=2026-01-01&to=${today}`;
    expect((await get(grower, url)).statusCode).toBe(200);
    expect((await get(aggregator, url)).statusCode).toBe(200);
    expect(cooperative, 'the demo grower has a cooperative').toBeDefined();
    expect((await get(cooperative!, url)).statusCode).toBe(200);
    const otherAggregator = await get(stranger, url);
    expect(otherAggregator.statusCode).toBe(403);
    const another = await get(otherGrower, url);
    expect(another.statusCode).toBe(403);
    expect(another.json().message).toBe('Ce relevé ne vous appartient pas');
    expect((await get(undefined, url)).statusCode).toBe(401);
    // `me` is the grower's own only.
    expect((await get(aggregator, '/api/contracts/statement-download/me')).statusCode).toBe(403);
    const unknown = await get(
      aggregator,
      '/api/contracts/statement-download/00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Producteur introuvable');
  });

  it('prints the grower’s card: his code in clear and as a QR code, on one bank-card page', async () => {
    const res = await get(aggregator, `/api/contracts/card-download/${growerId}`);
    expect(res.statusCode).toBe(200);
    const { url } = res.json<{ url: string }>();
    expect(url).toMatch(/^\/api\/contracts\/pdf\/g-[0-9a-f]{32}-[0-9a-z]+\.[\w-]{22}$/);
    const served = await app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toMatch(/carte-PRD-\d{6}\.pdf/);

    const statements = new GrowerStatements(
      narrowDb<GrowerStatementTables>()(testDb.db),
      testDb.db,
      'x'.repeat(40),
    );
    const card = await statements.cardData(growerId);
    const reference = await testDb.db
      .selectFrom('growers')
      .select('reference')
      .where('id', '=', growerId)
      .executeTakeFirstOrThrow();
    expect(card.reference).toBe(reference.reference);
    const pdf = await renderGrowerCardPdf(card, { compress: false });
    // The QR holds the code alone: what the collection centre's search takes, nothing personal.
    expect(decodePrintedQr(pdf)).toBe(reference.reference);
    const text = pdfText(pdf);
    expect(text).toContain('Carte du producteur');
    expect(text).toContain(reference.reference);
    expect(text).toContain(`${grower.firstname} ${grower.lastname}`);
    expect(text).not.toContain(grower.phone ?? 'no phone');
    expect(pdfPageCount(pdf)).toBe(1);
    // 85,6 × 54 mm, the size of a bank card.
    const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(pdf.toString('latin1'));
    const mm = (pt: string) => Math.round((Number(pt) / 72) * 25.4 * 10) / 10;
    expect([mm(box![1]!), mm(box![2]!)]).toEqual([85.6, 54]);
  });

  it('gives a grower’s card to his page’s readers in reach (cluster manager too), his own to the grower', async () => {
    const url = `/api/contracts/card-download/${growerId}`;
    expect((await get(grower, url)).statusCode).toBe(200);
    const load = userLoader(testDb.db);
    const manager = (await load(
      (await findDemoUser(testDb.db, 'gestionnaire@demo.filiere.bj')).id,
    ))!;
    expect((await get(manager, url)).statusCode).toBe(200);
    expect((await get(cooperative!, url)).statusCode).toBe(200);
    const outside = await get(stranger, url);
    expect(outside.statusCode).toBe(403);
    const another = await get(otherGrower, url);
    expect(another.statusCode).toBe(403);
    expect((await get(undefined, url)).statusCode).toBe(401);
    const unknown = await get(
      aggregator,
      '/api/contracts/card-download/00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Producteur introuvable');
  });

  it('refuses a reversed, future or malformed period with French field messages (400)', async () => {
    const base = `/api/contracts/statement-download/${growerId}`;
    const reversed = await get(grower, `${base}?from=2026-05-01&to=2026-04-01`);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe('La date de début doit précéder la date de fin');
    const future = await get(grower, `${base}?to=2999-01-01`);
    expect(future.statusCode).toBe(400);
    expect(future.json().message).toBe('La date de fin ne peut pas être dans le futur');
    const malformed = await get(grower, `${base}?from=hier`);
    expect(malformed.statusCode).toBe(400);
  });

  it('a statement link is bound to its grower and period: a changed day or id is a 403', async () => {
    const { url } = (await get(grower, '/api/contracts/statement-download/me')).json<{
      url: string;
    }>();
    const token = url.split('/').pop()!;
    const [payload, mac] = token.split('.') as [string, string];
    const widened = payload.replace(/-(\d{4})0101-/, '-20000101-');
    const otherId = payload.replace(/^s-[0-9a-f]{32}-/, `s-${'0'.repeat(32)}-`);
    const asContract = payload.replace(/^s-([0-9a-f]{32})-\d{8}-\d{8}-/, 'c-$1-');
    const impossibleDay = signPdfLink(
      app.deps.config.JWT_SECRET,
      { kind: 'statement', id: growerId, from: '2026-02-30', to: '2026-03-01' },
      new Date(),
    );
    for (const bad of [
      `${widened}.${mac}`,
      `${otherId}.${mac}`,
      `${asContract}.${mac}`,
      impossibleDay,
    ]) {
      const res = await app.inject({ method: 'GET', url: `/api/contracts/pdf/${bad}` });
      expect(res.statusCode, bad).toBe(403);
    }
  });
});
