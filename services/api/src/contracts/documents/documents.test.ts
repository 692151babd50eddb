import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { inflateSync } from 'node:zlib';
import { createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { buildApp } from '../../app.js';
import type { Database } from '../../database.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { findDemoUser, userLoader } from '../../identity/index.js';
import { bearer, seedOrganization, seedUser } from '../../identity/test-support.js';
import { runDemoSteps } from '../../kernel/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { product } from '../../modules.js';
import { walletDemoStep } from '../../wallet/demo/wallet.js';
import { contractEventSchemas } from '../domain/index.js';
import { contractsProjector } from '../read-model/index.js';
import { renderContractPdf } from '../pdf/contract-pdf.js';
import { ContractPdfs, type ContractPdfTables } from '../pdf/service.js';
import { decodePrintedQr, pdfText } from '../pdf/test-support.js';
import { DEFAULT_CLAUSES } from './domain/terms.js';
import { TRAIL_LABELS } from './domain/trail.js';
import { VERIFY_LIMIT } from './http/routes.js';
import { VERIFY_MESSAGES } from './verification.js';

/**
 * Documents people sign and anyone can verify, on a real PostgreSQL: the contract PDF prints
 * the clauses of the template version in force at its creation, the acceptance trail in
 * French, and a QR code whose URL's reference the public verification route answers with the
 * status and the ledger hash and nothing personal; the super admin publishes template versions.
 */
describe('verifiable contract documents', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: SignedInUser;
  let aggregator: SignedInUser;
  let grower: SignedInUser;
  let cooperativeUser: SignedInUser;
  let growerId: string;
  let plotId: string;
  let pdfs: ContractPdfs;
  const PUBLIC_URL = 'https://filiere.example';

  const createContract = async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/contracts/delivery-contract',
      headers: bearer(app, aggregator, aggregator.role_code),
      payload: { growerId, productId: plotId, quantity: 2.5, amount: 125_000 },
    });
    expect(created.statusCode).toBe(201);
    await catchUp(testDb.db, contractsProjector, { decode: catalogueDecoder(product.catalogue) });
    return created.json<{ contractId: string; reference: string }>();
  };
  const verify = (reference: string, ip = '10.1.1.1') =>
    app.inject({ method: 'GET', url: `/api/verifier/${reference}`, remoteAddress: ip });

  beforeAll(async () => {
    const logger = createLogger('silent', false);
    const db = testDb.db as Kysely<Database>;
    await runDemoSteps(
      { db, logger, openApp: (config, clock) => buildApp({ config, db, logger, clock }) },
      [identityDemoStep, walletDemoStep],
    );
    app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL }),
      db,
      logger,
    });
    await app.ready();
    const load = userLoader(db);
    superAdmin = (await load((await seedUser(db, 'ROLE_SUPER_ADMIN')).id))!;
    aggregator = (await load((await findDemoUser(db, 'agregateur@demo.filiere.bj')).id))!;
    grower = (await load(
      (await seedUser(db, 'ROLE_GROWER', { clusterId: aggregator.cluster_id })).id,
    ))!;
    const cooperativeId = await seedOrganization(db, 'Coopérative des Collines', 'COOPERATIVE');
    cooperativeUser = (await load(
      (
        await seedUser(db, 'ROLE_FARMER_ORGANIZATION', {
          clusterId: grower.cluster_id,
          organizationId: cooperativeId,
        })
      ).id,
    ))!;
    const place = {
      department_code: 'D03',
      commune_code: 'C017',
      arrondissement_code: 'A098',
      village_code: 'V1',
    };
    growerId = (
      await db
        .insertInto('growers')
        .values({
          user_id: grower.id,
          cluster_id: grower.cluster_id!,
          cooperative_id: cooperativeId,
          ...place,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    plotId = (
      await db
        .insertInto('plots')
        .values({
          grower_id: growerId,
          product_type: 'CAYENNE_LISSE',
          name: 'Parcelle des Collines',
          area_sown: '1.5',
          ...place,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    pdfs = new ContractPdfs(narrowDb<ContractPdfTables>()(db), app.deps.config.JWT_SECRET, {
      publicUrl: PUBLIC_URL,
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('prints a contract: parties, terms of its version, recovery rule, French trail, QR', async () => {
    const { contractId, reference } = await createContract();
    const confirmed = await app.inject({
      method: 'PATCH',
      url: `/api/contracts/delivery-contract/${contractId}/confirm`,
      headers: bearer(app, grower, grower.role_code),
    });
    expect([200, 204]).toContain(confirmed.statusCode);
    await catchUp(testDb.db, contractsProjector, { decode: catalogueDecoder(product.catalogue) });
    const data = await pdfs.data(contractId);
    const pdf = await renderContractPdf(data, { compress: false });
    const text = pdfText(pdf);
    const flat = text.replace(/\s+/g, ' ');

    expect(text).toContain(reference);
    expect(text).toContain('Coopérative des Collines');
    expect(text).toContain(`${grower.firstname} ${grower.lastname}`);
    expect(text).toContain('Parcelle des Collines');
    expect(text).toContain('50 F CFA'); // per kg
    expect(text).toContain('125 000 F CFA');
    expect(text).toContain('Cayenne lisse');
    expect(text).toContain('Modèle de contrat');
    expect(text).toContain('version 1');
    for (const clause of DEFAULT_CLAUSES) expect(text).toContain(clause.title);
    expect(flat).toContain('Recouvrement des avances');
    expect(flat).toContain('avances sur intrants et sur ananas');
    expect(flat).not.toMatch(/\{[a-z_]+\}/); // every placeholder filled
    // The trail, in French, with who and for whom.
    expect(text).toContain('Contrat proposé');
    expect(text).toContain('Contrat confirmé');
    expect(flat).toContain(`${grower.firstname} ${grower.lastname}, le producteur`);
    expect(flat).toContain(`${aggregator.firstname} ${aggregator.lastname}, pour l’agrégateur`);
    // Never an event type's name.
    for (const type of Object.keys(contractEventSchemas)) expect(text).not.toContain(type);
    // The ledger hash of the stream's last event.
    const last = await testDb.db
      .selectFrom('events')
      .select(['position', 'hash'])
      .where('stream_id', '=', `contract-${contractId}`)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(text).toContain(last.hash);

    // The printed QR code holds the verification page's URL.
    const url = decodePrintedQr(pdf);
    expect(url).toBe(`${PUBLIC_URL}/verifier/${data.verification.reference}`);
    expect(data.verification.reference).toMatch(/^[0-9a-z]{20}$/);
    // The same contract prints the same reference again.
    expect((await pdfs.data(contractId)).verification.reference).toBe(data.verification.reference);

    // The page's API: status and hash, nothing personal.
    const res = await verify(data.verification.reference);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      kind: 'CONTRACT',
      status: 'CONFIRMED',
      statusLabel: 'Prêt pour la livraison',
      documentNumber: reference,
      termsVersion: 1,
      ledger: { position: Number(last.position), hash: last.hash, intact: true },
    });
    const raw = res.body;
    for (const personal of [
      grower.firstname,
      grower.lastname,
      grower.phone,
      aggregator.lastname,
      cooperativeUser.lastname,
      'Parcelle des Collines',
      'Coopérative des Collines',
      growerId,
      plotId,
      contractId,
      grower.id,
      aggregator.id,
      '125000',
    ]) {
      if (personal) expect(raw).not.toContain(personal);
    }
  });

  it('prints a QR code on the grower’s statement; its page shows the ledger head at issue', async () => {
    const link = await app.inject({
      method: 'GET',
      url: `/api/contracts/statement-download/${growerId}`,
      headers: bearer(app, aggregator, aggregator.role_code),
    });
    expect(link.statusCode).toBe(200);
    const served = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
    expect(served.statusCode).toBe(200);
    const pdf = served.rawPayload;
    const inflated = [...pdf.toString('latin1').matchAll(/\/Length (\d+)[^>]*>>\s*stream\r?\n/g)]
      .map((m) => {
        const start = m.index + m[0].length;
        try {
          return inflateSync(pdf.subarray(start, start + Number(m[1])));
        } catch {
          return Buffer.alloc(0);
        }
      })
      .reduce((a, b) => Buffer.concat([a, b]), Buffer.alloc(0));
    const url = decodePrintedQr(inflated);
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/verifier/[0-9a-z]{20}$`));
    const res = await verify(url!.split('/').pop()!, '10.1.1.3');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'STATEMENT',
      statusLabel: 'Émis',
      documentNumber: null,
      ledger: { intact: true },
    });
    expect(res.body).not.toContain(growerId);
  });

  it('labels every event of a contract’s stream in French', () => {
    const contractTypes = Object.keys(contractEventSchemas).filter((t) => !t.startsWith('Debt'));
    for (const type of contractTypes) expect(TRAIL_LABELS[type], type).toBeTruthy();
  });

  it('answers an unknown or malformed reference 404 in French', async () => {
    for (const ref of ['abcdefghjkmnpqrstvwx', 'nope', '../../etc']) {
      const res = await verify(encodeURIComponent(ref), '10.1.1.2');
      expect(res.statusCode, ref).toBe(404);
      expect(res.json().message).toBe(VERIFY_MESSAGES.unknown);
    }
  });

  it('limits verifications per address (429, French), not others', async () => {
    let last = 0;
    for (let i = 0; i <= VERIFY_LIMIT.max; i++) {
      last = (await verify('abcdefghjkmnpqrstvwx', '10.9.9.9')).statusCode;
    }
    expect(last).toBe(429);
    const limited = await verify('abcdefghjkmnpqrstvwx', '10.9.9.9');
    expect(limited.json().message).toMatch(/^Trop de vérifications/);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await verify('abcdefghjkmnpqrstvwx', '10.9.9.10')).statusCode).toBe(404);
  });

  it('publishes template versions (super admin only); a contract prints the one of its creation', async () => {
    const before = await createContract();
    const list = await app.inject({
      method: 'GET',
      url: '/api/contracts/terms',
      headers: bearer(app, superAdmin, superAdmin.role_code),
    });
    expect(list.statusCode).toBe(200);
    const clauses = list.json().versions[0].clauses as { title: string; body: string }[];
    const edited = [
      ...clauses,
      {
        title: 'Litiges',
        body: 'Tout litige sur le contrat {reference} est d’abord porté devant la coopérative.',
      },
    ];
    const refused = await app.inject({
      method: 'POST',
      url: '/api/contracts/terms',
      headers: bearer(app, aggregator, aggregator.role_code),
      payload: { clauses: edited },
    });
    expect(refused.statusCode).toBe(403);
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/contracts/terms',
      headers: bearer(app, superAdmin, superAdmin.role_code),
      payload: { clauses: [{ title: 'Prix', body: 'Le prix est {tarif}.' }] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('{tarif}');
    const published = await app.inject({
      method: 'POST',
      url: '/api/contracts/terms',
      headers: bearer(app, superAdmin, superAdmin.role_code),
      payload: { clauses: edited },
    });
    expect(published.statusCode).toBe(201);
    expect(published.json()).toEqual({ version: 2 });
    const again = await app.inject({
      method: 'POST',
      url: '/api/contracts/terms',
      headers: bearer(app, superAdmin, superAdmin.role_code),
      payload: { clauses: edited },
    });
    expect(again.statusCode).toBe(422);
    const versions = (
      await app.inject({
        method: 'GET',
        url: '/api/contracts/terms',
        headers: bearer(app, superAdmin, superAdmin.role_code),
      })
    ).json().versions as { version: number; publishedBy: { id: string } | null }[];
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[0]!.publishedBy?.id).toBe(superAdmin.id);

    const after = await createContract();
    const oldText = pdfText(
      await renderContractPdf(await pdfs.data(before.contractId), { compress: false }),
    );
    const newText = pdfText(
      await renderContractPdf(await pdfs.data(after.contractId), { compress: false }),
    );
    expect(oldText).toContain('version 1');
    expect(oldText).not.toContain('Litiges');
    expect(newText).toContain('version 2');
    expect(newText).toContain('Litiges');
    expect(newText.replace(/\s+/g, ' ')).toContain(`contrat ${after.reference} est`);
  });
});
