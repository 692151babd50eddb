import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { EventStoreTables } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import {
  catalogueDecoder,
  catchUp,
  type ProjectionTables,
  type PushPublisher,
} from '@filiere/projections';
import type { Database } from '../database.js';
import { ROLE_CODES, type RoleCode } from '../http/auth.js';
import { seedCluster } from '../identity/test-support.js';
import { product } from '../modules.js';
import { fund, walletUser, withKey, type TestUser } from '../wallet/http/commands/test-support.js';

/** A seeded user the probes act as. */
export interface Actor extends TestUser {
  email: string;
  clusterId: string | null;
}

/** Users of every role with wallets, money and history, and the real ids they own. */
export interface World {
  clusterId: string;
  otherClusterId: string;
  /** One user per role, in `clusterId`. */
  byRole: Map<RoleCode, Actor>;
  /** A second aggregator, of the other cluster, with its own transactions and supplies. */
  stranger: Actor;
  actors: Actor[];
  /** Real ids and references (users, wallets, transactions, supplies, clusters). */
  known: string[];
  transactionIds: number[];
}

async function actor<DB extends Database>(
  app: FastifyInstance,
  db: Kysely<DB>,
  role: RoleCode,
  clusterId: string,
): Promise<Actor> {
  const user = await walletUser(app, db, role, { clusterId, bank: 'BJ0061010100' });
  const row = await narrowDb<Database>()(db)
    .selectFrom('users')
    .select('email')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  return { ...user, email: row.email as string, clusterId };
}

/** Applies every projector up to the head of the log (the read side the routes query). */
export async function project<DB extends ProjectionTables>(
  db: Kysely<DB>,
  publish?: PushPublisher,
): Promise<void> {
  const decode = catalogueDecoder(product.catalogue);
  for (const projector of product.projectors) {
    await catchUp(db, projector, { decode, ...(publish ? { publish } : {}) });
  }
}

/** Seeds the world through the real command routes, then projects it. */
export async function seedWorld<DB extends Database>(
  app: FastifyInstance,
  db: Kysely<DB>,
): Promise<World> {
  const clusterId = await seedCluster(db, `Sécurité ${Date.now()}`);
  const otherClusterId = await seedCluster(db, `Autre ${Date.now()}`);
  const byRole = new Map<RoleCode, Actor>();
  for (const role of ROLE_CODES) byRole.set(role, await actor(app, db, role, clusterId));
  const stranger = await actor(app, db, 'ROLE_INDUSTRIAL', otherClusterId);
  const superAdmin = byRole.get('ROLE_SUPER_ADMIN')!;
  const aggregator = byRole.get('ROLE_INDUSTRIAL')!;
  const grower = byRole.get('ROLE_GROWER')!;

  await fund(app, aggregator, superAdmin, 1_000_000);
  await fund(app, stranger, superAdmin, 1_000_000);
  // Everyone of the cluster gets money, so the fuzzer's commands can be accepted too.
  for (const member of byRole.values()) {
    if (member === aggregator) continue;
    const res = await app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: withKey(aggregator),
      payload: {
        source: aggregator.walletId,
        destination: member.walletId,
        amount: 20_000,
        reason: 'Dotation',
      },
    });
    if (res.statusCode !== 201) throw new Error(`dotation: ${res.statusCode} ${res.body}`);
  }
  const send = async (who: TestUser, url: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url, headers: withKey(who), payload });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  await send(aggregator, '/api/wallet/make-transfer', {
    source: aggregator.walletId,
    destination: grower.walletId,
    amount: 10_000,
    reason: 'Achat d’ananas',
  });
  await send(stranger, '/api/financement', { aggregatorId: aggregator.id, amount: 5_000 });
  await send(stranger, '/api/supply', {
    amount: 2_500,
    walletId: stranger.walletId,
    accountType: 'MOBILE_MONEY',
  });
  await send(stranger, '/api/supply', {
    amount: 7_500,
    walletId: stranger.walletId,
    accountType: 'BANK',
    bank: 'BOA',
  });
  await project(db);

  const tables = narrowDb<Database>()(db);
  const transactions = await tables.selectFrom('wallet_transactions').select('id').execute();
  const supplies = await tables.selectFrom('wallet_supplies').select('reference').execute();
  const actors = [...byRole.values(), stranger];
  const transactionIds = transactions.map((t) => Number(t.id));
  const known = [
    clusterId,
    otherClusterId,
    ...actors.flatMap((a) => [a.id, a.walletId, a.email]),
    ...transactionIds.map(String),
    ...supplies.map((s) => s.reference),
  ];
  return { clusterId, otherClusterId, byRole, stranger, actors, known, transactionIds };
}

/** The event log's head position (every append moves it). */
export async function headPosition<DB extends EventStoreTables>(db: Kysely<DB>): Promise<number> {
  const row = await narrowDb<EventStoreTables>()(db)
    .selectFrom('event_head')
    .select('position')
    .executeTakeFirstOrThrow();
  return Number(row.position);
}
