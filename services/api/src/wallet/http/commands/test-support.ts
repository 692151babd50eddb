import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { EventStoreTables } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import type { RoleCode } from '../../../http/auth.js';
import type { IdentityTables } from '../../../identity/index.js';
import { bearer, seedUser } from '../../../identity/test-support.js';
import {
  evolveSupply,
  evolveWallet,
  evolveWithdrawal,
  initialSupplyState,
  initialWalletState,
  initialWithdrawalState,
  supplyStreamId,
  walletStreamId,
  withdrawalStreamId,
  type WalletEvent,
} from '../../domain/index.js';

/** A seeded user with its wallet id and auth header (tests only). */
export interface TestUser {
  id: string;
  walletId: string;
  role: RoleCode;
  headers: Record<string, string>;
}

export async function walletUser<DB extends IdentityTables>(
  app: FastifyInstance,
  db: Kysely<DB>,
  role: RoleCode,
  options: { clusterId?: string | null; momo?: string | null; bank?: string | null } = {},
): Promise<TestUser> {
  const { id } = await seedUser(db, role, { clusterId: options.clusterId ?? null });
  const row = await narrowDb<IdentityTables>()(db)
    .updateTable('users')
    .set({
      momo_account_number: options.momo === undefined ? '+2290197123456' : options.momo,
      bank_account_number: options.bank ?? null,
    })
    .where('id', '=', id)
    .returning('wallet_id')
    .executeTakeFirstOrThrow();
  return { id, walletId: row.wallet_id, role, headers: bearer(app, { id }, role) };
}

export const withKey = (user: TestUser, key: string = randomUUID()) => ({
  ...user.headers,
  'idempotency-key': key,
});

/** Tops up `user`'s wallet through the bank flow: POST /supply then a super admin's validation. */
export async function fund(
  app: FastifyInstance,
  user: TestUser,
  superAdmin: TestUser,
  amount: number,
): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/supply',
    headers: withKey(user),
    payload: { amount, walletId: user.walletId, accountType: 'BANK', bank: 'BAB' },
  });
  if (created.statusCode !== 201) throw new Error(`supply: ${created.body}`);
  const { reference } = created.json();
  const validated = await app.inject({
    method: 'POST',
    url: '/api/supply/validate-bank-supply',
    headers: withKey(superAdmin),
    payload: { reference },
  });
  if (validated.statusCode !== 200) throw new Error(`validate: ${validated.body}`);
  return reference;
}

async function events(app: FastifyInstance, streamId: string): Promise<WalletEvent[]> {
  const recorded = await app.eventStore.readStream(streamId);
  return recorded.map((e) => ({ type: e.type, data: e.data }) as WalletEvent);
}

/** A wallet's state folded from the event store (the read side is not needed). */
export async function walletState(app: FastifyInstance, walletId: string) {
  return (await events(app, walletStreamId(walletId))).reduce(evolveWallet, initialWalletState());
}

export async function supplyState(app: FastifyInstance, reference: string) {
  return (await events(app, supplyStreamId(reference))).reduce(evolveSupply, initialSupplyState());
}

export async function withdrawalState(app: FastifyInstance, withdrawalId: string) {
  return (await events(app, withdrawalStreamId(withdrawalId))).reduce(
    evolveWithdrawal,
    initialWithdrawalState(),
  );
}

/** How many events of `type` the whole log holds. */
export async function countEvents<DB extends EventStoreTables>(
  db: Kysely<DB>,
  type: string,
): Promise<number> {
  const row = await narrowDb<EventStoreTables>()(db)
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
