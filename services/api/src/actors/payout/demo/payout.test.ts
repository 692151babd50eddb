import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { identityDemoStep } from '../../../identity/demo/identity.js';
import { clustersDemoStep } from '../../clusters/demo/clusters.js';
import { cooperativesDemoStep } from '../../cooperatives/demo/cooperatives.js';
import { growersDemoStep } from '../../growers/demo/growers.js';
import { DEMO_PAYOUT_NUMBERS, payoutDemoStep } from './payout.js';
import type { Database } from '../../../database.js';
import { loadDemoSteps } from '../../../test-app.js';

const load = loadDemoSteps;

describe('payout demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('two requests of the cluster manager: one approved by the super admin (the account changed), one pending; once', async () => {
    const logger = createLogger('silent', false);
    const steps = [
      identityDemoStep,
      clustersDemoStep,
      cooperativesDemoStep,
      growersDemoStep,
      payoutDemoStep,
    ];
    expect(await load({ db: testDb.db, logger }, steps)).toContain('actors-payout');
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([]);
    const { rows } = await sql<{
      status: string;
      momo: string;
      asked: string;
      requester: string;
      decider: string | null;
    }>`select p.status, u.momo_account_number as momo, p.momo_account_number as asked,
         rq.email as requester, dc.email as decider
       from payout_requests p join users u on u.id = p.user_id
       join users rq on rq.id = p.requested_by left join users dc on dc.id = p.decided_by
       order by p.status`.execute(testDb.db);
    expect(rows).toHaveLength(2);
    const [approved, pending] = rows;
    expect(approved).toMatchObject({
      status: 'APPROVED',
      momo: DEMO_PAYOUT_NUMBERS[0],
      requester: 'gestionnaire@demo.filiere.bj',
      decider: 'superadmin@demo.filiere.bj',
    });
    expect(pending).toMatchObject({
      status: 'PENDING',
      asked: DEMO_PAYOUT_NUMBERS[1],
      decider: null,
    });
    expect(pending!.momo).not.toBe(DEMO_PAYOUT_NUMBERS[1]);
    const sms = await sql<{ n: number }>`select count(*)::int as n from sms_outbox`.execute(
      testDb.db,
    );
    expect(sms.rows[0]!.n).toBeGreaterThanOrEqual(6);
  }, 120_000);
});
