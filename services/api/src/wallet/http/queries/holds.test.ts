import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { EventStore } from '@filiere/event-store';
import { useTestDatabase } from '@filiere/platform/testing';
import { checkProjector } from '@filiere/projections';
import { bearer, seedCluster, seedUser } from '../../../identity/test-support.js';
import { buildTestApp } from '../../../test-app.js';
import { captureHold, placeHold, releaseHold, settleHold } from '../../domain/index.js';
import { holdsProjector } from '../../read-model/holds.js';
import {
  projectWallet,
  RecordingLedger,
  walletCatalogue,
  walletDecoder,
} from '../../read-model/test-support.js';
import type { Database } from '../../../database.js';

const t = useTestDatabase<Database>();
let app: FastifyInstance;

const CONTRACT = 'contract-4f0c2a8e-0a4e-4b8e-9a55-2f1f3c1b9e01';
const PAID = 'contract-11111111-2222-4333-8444-555555555555';
const ASSIGNMENT = 'input-assignment-12';
const CARRIAGE = 'carriage-9d1e7c52-3b7a-4c55-9a0e-0c1f2b3a4d5e';

type Who = { id: string; walletId: string; role: 'ROLE_INDUSTRIAL' | 'ROLE_INPUT_PROVIDER' };
const people: Record<'aggregator' | 'provider', Who> = {} as never;

async function seed(role: Who['role'], cluster: string): Promise<Who> {
  const { id } = await seedUser(t.db, role, { clusterId: cluster });
  const row = await t.db
    .selectFrom('users')
    .select('wallet_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, walletId: row.wallet_id, role };
}

const get = (who: Who | null, url: string) =>
  app.inject({ method: 'GET', url, headers: who ? bearer(app, who, who.role) : {} });

/**
 * Mon Wallet showed only the available balance while contracts and season assignments held
 * more: `GET wallet/holds` gives available, held (by what holds it, with the record to open)
 * and total, available + held = total.
 */
describe('GET wallet/holds', () => {
  beforeAll(async () => {
    app = await buildTestApp(t.db);
    const cluster = await seedCluster(t.db, `Zè ${Date.now()}`);
    people.aggregator = await seed('ROLE_INDUSTRIAL', cluster);
    people.provider = await seed('ROLE_INPUT_PROVIDER', cluster);
    const { aggregator, provider } = people;
    const a = aggregator.walletId;
    const p = provider.walletId;
    const ledger = new RecordingLedger();
    const actor = ledger.open(a, aggregator.id);
    ledger.open(p, provider.id, 'ROLE_INPUT_PROVIDER');
    ledger.fund(actor, 3_000_000, 'APP-HOLDS00001');
    const place = (holdId: string, amount: number, purpose: string) =>
      ledger.apply(placeHold(ledger.wallet(a), { holdId, amount, purpose }));
    place(CONTRACT, 800_000, 'Contrat de livraison LIV-93F1C694');
    place(ASSIGNMENT, 500_000, 'Fournisseur d’intrant, saison 3 : 1000 kg × 500 F CFA');
    place(CARRIAGE, 100_000, 'Contrat de transport TR-5A1B2C3D');
    place(PAID, 300_000, 'Contrat de livraison LIV-0000AAAA');
    // A delivery paid 106,000 of the assignment; the carriage was released, the other paid.
    ledger.apply(
      settleHold(
        { wallet: ledger.wallet(a), destinations: { [p]: ledger.wallet(p) } },
        {
          holdId: ASSIGNMENT,
          settlementId: 'delivery-4',
          payments: [{ walletId: p, amount: 106_000 }],
          closeHold: false,
          allowExcess: false,
        },
      ),
    );
    ledger.apply(releaseHold(ledger.wallet(a), { holdId: CARRIAGE }));
    ledger.apply(
      captureHold(
        { wallet: ledger.wallet(a), destinations: { [p]: ledger.wallet(p) } },
        { holdId: PAID, payments: [{ walletId: p, amount: 300_000 }] },
      ),
    );
    await ledger.flush(new EventStore(t.db, walletCatalogue));
    await projectWallet(t.db);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('available, held by each contract and assignment (with its page’s id), total', async () => {
    const response = await get(people.aggregator, '/api/wallet/holds');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      available: 1_400_000,
      held: 1_194_000,
      total: 2_594_000,
      count: 2,
      data: [
        {
          holdId: ASSIGNMENT,
          kind: 'INPUT_ASSIGNMENT',
          targetId: '12',
          reference: 'FI-000012',
          amount: 394_000,
          since: expect.any(String),
        },
        {
          holdId: CONTRACT,
          kind: 'DELIVERY_CONTRACT',
          targetId: '4f0c2a8e-0a4e-4b8e-9a55-2f1f3c1b9e01',
          reference: 'LIV-93F1C694',
          amount: 800_000,
          since: expect.any(String),
        },
      ],
    });
    expect(body.available + body.held).toBe(body.total);
    const stats = (await get(people.aggregator, '/api/wallet/stats')).json();
    expect(stats).toMatchObject({ balance: body.total, availableBalance: body.available });
  });

  it('is paginated; the provider holds nothing; 401 without a token; 400 on a bad page', async () => {
    const page = (await get(people.aggregator, '/api/wallet/holds?page=2&limit=1')).json();
    expect(page.data.map((h: { holdId: string }) => h.holdId)).toEqual([CONTRACT]);
    expect(page.count).toBe(2);
    expect((await get(people.provider, '/api/wallet/holds')).json()).toEqual({
      available: 406_000,
      held: 0,
      total: 406_000,
      data: [],
      count: 0,
    });
    expect((await get(null, '/api/wallet/holds')).statusCode).toBe(401);
    expect((await get(people.aggregator, '/api/wallet/holds?page=0')).statusCode).toBe(400);
  });

  it('a rebuild gives the same holds (ledger:check)', async () => {
    const result = await checkProjector(t.db, holdsProjector, { decode: walletDecoder });
    expect(result.differences).toEqual([]);
  });
});
