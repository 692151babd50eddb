import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { applyPush } from '../../../../shared/realtime/apply-push.js';
import { parsePush } from '../../../../shared/realtime/invalidations.js';
import { subContractsQuery, type ParentHeader, type SubContractRow } from './batches.js';

type SubsPage = { parent: ParentHeader; data: SubContractRow[]; count: number };

const PARENT: ParentHeader = {
  id: 'P1',
  reference: 'LIVP-P1',
  subContracts: 200,
  quantity: '300',
  amount: 200_000,
  createdAt: '2026-11-23T09:00:00.000Z',
};

/** A page of the list as the API answers it when `count` sub-contracts are projected. */
const pageOf = (count: number): SubsPage => ({ parent: PARENT, data: [], count });

/**
 * The sub-contracts page right after 'Valider' (as web/e2e/contract-batches.test.ts meets it):
 * the parent's projection has committed, the contracts projector commits its 200
 * sub-contracts and pushes `contracts.updated` (without data: over 100 rows) while the page's
 * first read — taken before that commit — is on its way. The list must be read again; with
 * the push joined into the first read and forgotten, it would stay empty.
 */
describe('sub-contracts list and the contracts push', () => {
  it('a contracts.updated push that arrives during the first read refetches the list after it', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const answers: ((page: SubsPage) => void)[] = [];
    const queryFn = vi.fn(() => new Promise<SubsPage>((resolve) => answers.push(resolve)));
    // The page's own query (key and options), its API call replaced by the answers above.
    const observer = new QueryObserver(client, { ...subContractsQuery('P1', 1), queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    try {
      await vi.waitFor(() => expect(answers).toHaveLength(1));
      const push = parsePush(JSON.stringify({ type: 'contracts.updated', data: null }));
      applyPush(client, push!);
      answers[0]!(pageOf(0));
      await vi.waitFor(() => expect(answers).toHaveLength(2));
      answers[1]!(pageOf(200));
      await vi.waitFor(() => expect(observer.getCurrentResult().data?.count).toBe(200));
    } finally {
      unsubscribe();
      client.clear();
    }
  });
});
