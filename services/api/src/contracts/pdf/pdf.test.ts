import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { buildApp } from '../../app.js';
import type { Database } from '../../database.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { DEMO_SECOND_AGGREGATOR, findDemoUser, userLoader } from '../../identity/index.js';
import { bearer, seedOrganization, seedUser } from '../../identity/test-support.js';
import { runDemoSteps } from '../../kernel/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { product } from '../../modules.js';
import { walletDemoStep } from '../../wallet/demo/wallet.js';
import { contractsProjector } from '../read-model/index.js';
import { formatFcfa, pricePerTonne, renderContractPdf } from './contract-pdf.js';
import { signPdfLink, PDF_LINK_TTL_MS } from './links.js';
import { ContractPdfs, type ContractPdfTables } from './service.js';
import { pdfText } from './test-support.js';

/**
 * Contract PDFs on a real PostgreSQL: the signed link (reach of the contract detail widened to
 * the grower and its cooperative), the PDF it serves, and what the PDF prints — the reference
 * and the ledger position and hash of the event that created the contract.
 */
describe('contract PDFs', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let aggregator: SignedInUser;
  let other: SignedInUser;
  let grower: SignedInUser;
  let cooperativeUser: SignedInUser;
  let contractId: string;
  let reference: string;

  beforeAll(async () => {
    const logger = createLogger('silent', false);
    const db = testDb.db as Kysely<Database>;
    await runDemoSteps(
      { db, logger, openApp: (config, clock) => buildApp({ config, db, logger, clock }) },
      [identityDemoStep, walletDemoStep],
    );
    app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db,
      logger,
    });
    await app.ready();
    const load = userLoader(db);
    aggregator = (await load((await findDemoUser(db, 'agregateur@demo.filiere.bj')).id))!;
    other = (await load((await findDemoUser(db, DEMO_SECOND_AGGREGATOR)).id))!;
    // A grower's user in the aggregator's cluster, made a grower below (the demo's own grower,
    // producteur@, is registered by the actors' demo, which does not run here).
    grower = (await load(
      (await seedUser(db, 'ROLE_GROWER', { clusterId: aggregator.cluster_id })).id,
    ))!;
    const cooperativeId = await seedOrganization(db, 'Coopérative des Collines', 'COOPERATIVE');
    const coop = await seedUser(db, 'ROLE_FARMER_ORGANIZATION', {
      clusterId: grower.cluster_id,
      organizationId: cooperativeId,
    });
    cooperativeUser = (await load(coop.id))!;
    const g = await db
      .insertInto('growers')
      .values({
        user_id: grower.id,
        cluster_id: grower.cluster_id!,
        cooperative_id: cooperativeId,
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A098',
        village_code: 'V1',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const plot = await db
      .insertInto('plots')
      .values({
        grower_id: g.id,
        product_type: 'CAYENNE_LISSE',
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A098',
        village_code: 'V1',
        name: 'Parcelle des Collines',
        area_sown: '1.5',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const created = await app.inject({
      method: 'POST',
      url: '/api/contracts/delivery-contract',
      headers: bearer(app, aggregator, aggregator.role_code),
      payload: { growerId: g.id, productId: plot.id, quantity: 2.5, amount: 1_250_000 },
    });
    expect(created.statusCode).toBe(201);
    ({ contractId, reference } = created.json<{ contractId: string; reference: string }>());
    await catchUp(db, contractsProjector, { decode: catalogueDecoder(product.catalogue) });
  });

  afterAll(async () => {
    await app?.close();
  });

  const linkFor = (who: SignedInUser, id = contractId) =>
    app.inject({
      method: 'GET',
      url: `/api/contracts/smarts-download/${id}`,
      headers: bearer(app, who, who.role_code),
    });

  it('gives the aggregator a signed link that serves the PDF without the access token', async () => {
    const res = await linkFor(aggregator);
    expect(res.statusCode).toBe(200);
    const { url } = res.json<{ url: string }>();
    expect(url).toMatch(/^\/api\/contracts\/pdf\/c-[0-9a-f]{32}-[0-9a-z]+\.[\w-]{22}$/);
    expect(url.length).toBeLessThan(100);
    const pdf = await app.inject({ method: 'GET', url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`contrat-${reference}.pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('prints the parties, figures, reference and the contract’s ledger position and hash', async () => {
    // The document proves the contract's stream as printed: its latest event (after the
    // creation, the acceptance code sent to the grower).
    const last = await testDb.db
      .selectFrom('events')
      .select(['position', 'hash', 'type'])
      .where('stream_id', '=', `contract-${contractId}`)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(last.type).toBe('AcceptanceCodeIssued');
    const pdfs = new ContractPdfs(
      narrowDb<ContractPdfTables>()(testDb.db),
      app.deps.config.JWT_SECRET,
    );
    const pdf = await renderContractPdf(await pdfs.data(contractId), { compress: false });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain(reference);
    expect(text).toContain(last.hash);
    expect(last.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(text).toContain(String(last.position));
    // The ledger is named in French, never by an event type.
    expect(text).not.toContain('DeliveryContractCreated');
    expect(text).toContain('Contrat proposé');
    expect(text).toContain('Parcelle des Collines');
    expect(text).toContain(`${grower.firstname} ${grower.lastname}`);
    expect(text).toContain(`${aggregator.firstname} ${aggregator.lastname}`);
    expect(text).toContain('Coopérative des Collines');
    expect(text).toContain('2,5 t');
    expect(text).toContain('1 250 000 F CFA');
    expect(text).toContain('500 000 F CFA'); // per tonne
    expect(text).toContain('En attente');
  });

  it('reaches the grower and its cooperative; 403 for another aggregator, 404 unknown', async () => {
    expect((await linkFor(grower)).statusCode).toBe(200);
    expect((await linkFor(cooperativeUser)).statusCode).toBe(200);
    const denied = await linkFor(other);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Ce contrat ne vous appartient pas');
    const unknown = await linkFor(aggregator, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Contrat introuvable');
    const anonymous = await app.inject({
      method: 'GET',
      url: `/api/contracts/smarts-download/${contractId}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses (403, French) a tampered, re-signed-elsewhere or expired link', async () => {
    const { url } = (await linkFor(aggregator)).json<{ url: string }>();
    const token = url.split('/').pop()!;
    const [payload, mac] = token.split('.') as [string, string];
    // Another contract's id under the original signature.
    const forged = payload.replace(/-[0-9a-f]{32}-/, `-${'0'.repeat(32)}-`);
    // A later expiry under the original signature.
    const extended = payload.replace(
      /-([0-9a-z]+)$/,
      (_, e: string) => `-${(parseInt(e, 36) + 3_600_000).toString(36)}`,
    );
    const expired = signPdfLink(
      app.deps.config.JWT_SECRET,
      { kind: 'contract', id: contractId },
      new Date(Date.now() - PDF_LINK_TTL_MS - 1000),
    );
    const wrongSecret = signPdfLink(
      'x'.repeat(40),
      { kind: 'contract', id: contractId },
      new Date(),
    );
    for (const bad of [
      `${forged}.${mac}`,
      `${extended}.${mac}`,
      `${payload}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`,
      expired,
      wrongSecret,
      'nope',
    ]) {
      const res = await app.inject({ method: 'GET', url: `/api/contracts/pdf/${bad}` });
      expect(res.statusCode, bad).toBe(403);
      expect(res.json().message).toBe(
        'Ce lien a expiré ou n’est pas valide : rouvrez le PDF depuis le contrat',
      );
    }
  });

  it('rounds the price per tonne in integers and groups F CFA', () => {
    expect(pricePerTonne(1_250_000, 2_500)).toBe(500_000);
    expect(pricePerTonne(100_000, 3_000)).toBe(33_333);
    expect(pricePerTonne(200_000, 3_000)).toBe(66_667);
    expect(pricePerTonne(Number.MAX_SAFE_INTEGER, 1_000)).toBe(Number.MAX_SAFE_INTEGER);
    expect(formatFcfa(1_250_000)).toBe('1 250 000 F CFA');
    expect(formatFcfa(999)).toBe('999 F CFA');
  });
});
