import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
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
import { decodePrintedQr, inflatedPdf, pdfText } from '../documents/pdf-reading.test-support.js';
import { contractEventSchemas } from '../domain/index.js';
import { contractsProjector } from '../read-model/index.js';
import { formatFcfa } from './contract-pdf.js';
import { RECEIPT_NOT_PAID } from './service.js';

const PUBLIC_URL = 'https://filiere.example';

/**
 * The grower's payment receipt on a real PostgreSQL with the contracts demo (one contract
 * paid with a debt recovered): a signed link for the contract's parties, the PDF it serves in
 * French, and the same verification QR as the contract and the statement, whose public page
 * answers the receipt's status and ledger hash and nothing personal.
 */
describe('payment receipt PDF', () => {
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
  let paid: {
    id: string;
    reference: string;
    grower_id: string;
    grower_user_id: string;
    grower_net: number | null;
    recovered_amount: number | null;
  };

  beforeAll(async () => {
    const decode = catalogueDecoder(product.catalogue);
    await catchUp(testDb.db, contractsProjector, { decode });
    await catchUp(testDb.db, debtRecoveriesProjector, { decode });
    app = await buildTestApp(testDb.db, { env: { PUBLIC_URL } });
    await app.ready();
    const load = userLoader(testDb.db);
    aggregator = (await load((await findDemoUser(testDb.db, 'agregateur@demo.filiere.bj')).id))!;
    stranger = (await load((await findDemoUser(testDb.db, DEMO_SECOND_AGGREGATOR)).id))!;
    paid = await testDb.db
      .selectFrom('delivery_contracts')
      .select(['id', 'reference', 'grower_id', 'grower_user_id', 'grower_net', 'recovered_amount'])
      .where('status', '=', 'COMPLETED')
      .where('recovered_amount', '>', 0)
      .executeTakeFirstOrThrow();
    grower = (await load(paid.grower_user_id))!;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  const get = (who: SignedInUser | undefined, url: string) =>
    app.inject({ method: 'GET', url, headers: who ? bearer(app, who, who.role_code) : {} });

  it('gives the paid grower a receipt in French whose QR opens its public page, nothing personal on it', async () => {
    const link = await get(grower, `/api/contracts/receipt-download/${paid.id}`);
    expect(link.statusCode, link.body).toBe(200);
    const { url } = link.json<{ url: string }>();
    expect(url).toMatch(/^\/api\/contracts\/pdf\/r-[0-9a-f]{32}-[0-9a-z]+\.[\w-]{22}$/);
    const served = await app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toContain(`recu-${paid.reference}.pdf`);

    const content = inflatedPdf(served.rawPayload);
    const text = pdfText(content);
    expect(text).toContain('Reçu de paiement');
    expect(text).toContain(paid.reference);
    expect(text).toContain('Dettes recouvrées');
    expect(text).toContain(formatFcfa(paid.recovered_amount!));
    expect(text).toContain('Net versé au producteur');
    expect(text).toContain(formatFcfa(paid.grower_net!));
    // French only: no event type's name on a grower's document.
    for (const type of Object.keys(contractEventSchemas)) expect(text).not.toContain(type);

    const settled = await testDb.db
      .selectFrom('events')
      .select(['position', 'hash'])
      .where('stream_id', '=', `contract-${paid.id}`)
      .where('type', '=', 'DeliveryContractSettled')
      .executeTakeFirstOrThrow();
    expect(text).toContain(settled.hash);

    const printed = decodePrintedQr(content);
    expect(printed).toMatch(new RegExp(`^${PUBLIC_URL}/verifier/[0-9a-z]{20}$`));
    // The URL is printed under the QR too, for whoever cannot scan it.
    expect(text).toContain(printed!);
    const reference = printed!.split('/').pop()!;
    const page = await app.inject({
      method: 'GET',
      url: `/api/verifier/${reference}`,
      remoteAddress: '10.2.2.2',
    });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toEqual({
      reference,
      kind: 'RECEIPT',
      kindLabel: 'Reçu de paiement',
      status: 'PAID',
      statusLabel: 'Payé',
      issuedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      documentNumber: paid.reference,
      period: null,
      termsVersion: null,
      ledger: {
        position: Number(settled.position),
        hash: settled.hash,
        recordedAt: expect.any(String),
        intact: true,
      },
    });
    const { firstname, lastname, phone } = await testDb.db
      .selectFrom('users')
      .select(['firstname', 'lastname', 'phone'])
      .where('id', '=', paid.grower_user_id)
      .executeTakeFirstOrThrow();
    for (const personal of [
      firstname,
      lastname,
      phone,
      paid.grower_id,
      paid.grower_user_id,
      paid.id,
    ])
      if (personal) expect(page.body).not.toContain(String(personal));

    // One receipt, one reference: printed again (by the aggregator), the same QR.
    const again = await get(aggregator, `/api/contracts/receipt-download/${paid.id}`);
    const reprinted = await app.inject({ method: 'GET', url: again.json<{ url: string }>().url });
    expect(decodePrintedQr(inflatedPdf(reprinted.rawPayload))).toBe(printed);
  });

  it('no receipt before the payment (404, French); another aggregator 403', async () => {
    const pending = await testDb.db
      .selectFrom('delivery_contracts')
      .select('id')
      .where('status', '!=', 'COMPLETED')
      .where('aggregator_user_id', '=', aggregator.id)
      .executeTakeFirstOrThrow();
    const notPaid = await get(aggregator, `/api/contracts/receipt-download/${pending.id}`);
    expect(notPaid.statusCode).toBe(404);
    expect(notPaid.json()).toMatchObject({ message: RECEIPT_NOT_PAID });
    expect((await get(stranger, `/api/contracts/receipt-download/${paid.id}`)).statusCode).toBe(
      403,
    );
    expect((await get(undefined, `/api/contracts/receipt-download/${paid.id}`)).statusCode).toBe(
      401,
    );
  });
});
