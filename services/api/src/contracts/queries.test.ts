import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../database.js';
import type { SignedInUser } from '../kernel/actor.js';
import { ROLE } from '../kernel/roles.js';
import { seedUser } from '../identity/test-support.js';
import { ContractQueries, type ContractQueryTables } from './queries.js';

/**
 * The contract's dates as the pool reads DATE columns (Date objects): the detail answers
 * 'YYYY-MM-DD' — it answered 'Thu Apr 22', which a browser reads as 22 April 2001.
 */
describe('contract queries: dates', () => {
  const testDb = useTestDatabase<Database>();

  it('answers the delivery date and the delivery day as YYYY-MM-DD', async () => {
    const db = testDb.db as Kysely<Database>;
    const id = randomUUID();
    const aggregatorId = randomUUID();
    await db
      .insertInto('delivery_contracts')
      .values({
        id,
        reference: `LIV-${id.slice(0, 8).toUpperCase()}`,
        parent_id: null,
        aggregator_user_id: aggregatorId,
        grower_id: randomUUID(),
        grower_user_id: randomUUID(),
        plot_id: randomUUID(),
        product_type: 'CAYENNE_LISSE',
        quantity_kg: 2_000,
        amount: 200_000,
        delivery_date: '2027-04-22',
        status: 'DELIVERED',
        delivered_kg: 1_500,
        delivered_on: '2026-11-25',
        delivered_amount: null,
        recovered_amount: null,
        grower_net: null,
        created_at: new Date('2026-11-22T10:00:00Z'),
        updated_at: new Date('2026-11-22T10:00:00Z'),
      })
      .execute();
    const admin = { id: randomUUID(), role_code: ROLE.SUPER_ADMIN } as SignedInUser;
    const row = await new ContractQueries(narrowDb<ContractQueryTables>()(db)).byId(admin, id);
    expect(row).toMatchObject({ deliveryDate: '2027-04-22', deliveredOn: '2026-11-25' });
    const list = await new ContractQueries(narrowDb<ContractQueryTables>()(db)).list(admin, {
      page: 1,
      limit: 10,
      filter: 'all',
    });
    expect(list.data[0]).toMatchObject({ deliveryDate: '2027-04-22' });
  });

  it('lets the grower read its own contract (it confirms there), not another grower', async () => {
    const db = testDb.db as Kysely<Database>;
    const id = randomUUID();
    const growerUserId = randomUUID();
    await db
      .insertInto('delivery_contracts')
      .values({
        id,
        reference: `LIV-${id.slice(0, 8).toUpperCase()}`,
        parent_id: null,
        aggregator_user_id: randomUUID(),
        grower_id: randomUUID(),
        grower_user_id: growerUserId,
        plot_id: randomUUID(),
        product_type: 'CAYENNE_LISSE',
        quantity_kg: 1_000,
        amount: 100_000,
        delivery_date: '2027-04-22',
        status: 'PENDING',
        delivered_kg: null,
        delivered_on: null,
        delivered_amount: null,
        recovered_amount: null,
        grower_net: null,
        created_at: new Date('2026-11-22T10:00:00Z'),
        updated_at: new Date('2026-11-22T10:00:00Z'),
      })
      .execute();
    const queries = new ContractQueries(narrowDb<ContractQueryTables>()(db));
    const grower = { id: growerUserId, role_code: ROLE.GROWER } as SignedInUser;
    expect(await queries.byId(grower, id)).toMatchObject({ id, status: 'PENDING' });
    const other = { id: randomUUID(), role_code: ROLE.GROWER } as SignedInUser;
    await expect(queries.byId(other, id)).rejects.toMatchObject({ statusCode: 403 });
    // A cooperative that is not the grower's (the grower here has none) does not read it.
    const cooperative = { id: randomUUID(), role_code: ROLE.FARMER_ORGANIZATION } as SignedInUser;
    await expect(queries.byId(cooperative, id)).rejects.toMatchObject({ statusCode: 403 });
  });

  it('the admins’ list (contracts/delivery-contract) searches the reference and the grower’s names', async () => {
    const db = testDb.db as Kysely<Database>;
    const growers = [await seedUser(db, ROLE.GROWER), await seedUser(db, ROLE.GROWER)];
    const names = await db
      .selectFrom('users')
      .select(['id', 'firstname', 'lastname'])
      .where(
        'id',
        'in',
        growers.map((g) => g.id),
      )
      .execute();
    const ids: string[] = [];
    for (const grower of growers) {
      const id = randomUUID();
      ids.push(id);
      await db
        .insertInto('delivery_contracts')
        .values({
          id,
          reference: `LIV-${id.slice(0, 8).toUpperCase()}`,
          parent_id: null,
          aggregator_user_id: randomUUID(),
          grower_id: randomUUID(),
          grower_user_id: grower.id,
          plot_id: randomUUID(),
          product_type: 'CAYENNE_LISSE',
          quantity_kg: 1_000,
          amount: 100_000,
          delivery_date: '2027-04-22',
          status: 'PENDING',
          delivered_kg: null,
          delivered_on: null,
          delivered_amount: null,
          recovered_amount: null,
          grower_net: null,
          created_at: new Date('2026-11-22T10:00:00Z'),
          updated_at: new Date('2026-11-22T10:00:00Z'),
        })
        .execute();
    }
    const admin = { id: randomUUID(), role_code: ROLE.ADMIN } as SignedInUser;
    const queries = new ContractQueries(narrowDb<ContractQueryTables>()(db));
    const search = (q: string) => queries.list(admin, { page: 1, limit: 10, filter: 'all', q });
    const second = names.find((n) => n.id === growers[1]!.id)!;
    const byName = await search(`${second.firstname} ${second.lastname}`);
    expect(byName.data.map((r) => r.id)).toEqual([ids[1]]);
    expect(byName.count).toBe(1);
    const byReference = await search(`liv-${ids[0]!.slice(0, 8)}`);
    expect(byReference.data.map((r) => r.id)).toEqual([ids[0]]);
    // LIKE's own characters are searched literally.
    expect((await search('%')).count).toBe(0);
  });
});
