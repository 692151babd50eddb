import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../../shared/api/idempotency.js';
import type { ApiBody, ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { toPage, type Page } from '../../../../shared/auth/user.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';
import type { ContractFilter, DeliveryContractsSearch } from '../model/statuses.js';

/**
 * The delivery contracts' calls (spec actors-contracts-admin §7 "Contracts",
 * services/api/src/contracts/http): the lists, the detail, create (a money command: it
 * places a hold, so it carries an Idempotency-Key), the lifecycle (confirm, record the
 * delivery, cancel) and the runs that pay growers.
 */

/** `GET contracts/delivery-contract/{id}`: the contract, and once run its breakdown. */
export type DeliveryContractDetail = ApiResponse<'/api/contracts/delivery-contract/{id}'>;
/** A row of the admins' list `GET contracts/delivery-contract`. */
export type DeliveryContract = RowOf<ApiResponse<'/api/contracts/delivery-contract'>>;
/**
 * Where a run contract's money went (F CFA): the input and pineapple advances the aggregator
 * kept, the social financings repaid to the SFDs, and the net paid to the grower.
 */
export type SettlementBreakdown = NonNullable<DeliveryContractDetail['breakdown']>;
/** A row of `contracts/smarts/{userId}/LIVRAISON` (§3 'Smart contract'). */
export type SmartContract = RowOf<ApiResponse<'/api/contracts/smarts/{userId}/{type}'>>;

/** One row of the screen's list, whichever call answered it. */
export interface ContractListRow {
  id: string;
  reference: string;
  status: string;
  createdAt: string;
  /** The grower's names. */
  grower: string | null;
  quantity: string;
  amount: number;
  /** YYYY-MM-DD. */
  deliveryDate: string;
}

export const contractKeys = {
  all: ['contracts'] as const,
  list: (userId: string, search: DeliveryContractsSearch) =>
    ['contracts', 'delivery', 'list', userId, search] as const,
  detail: (id: string) => ['contracts', 'delivery', 'detail', id] as const,
  run: (runId: string) => ['contracts', 'runs', runId] as const,
  delivered: (owner: string) => ['contracts', 'delivery', 'delivered', owner] as const,
};

const FILTER: Record<ContractFilter, string> = {
  waiting: 'waiting',
  ready: 'ready',
  delivered: 'delivered',
  executed: 'executed',
  outtime: 'outtime',
};

/**
 * An aggregator's contracts as smart contracts (search on the reference and the grower's
 * names): the aggregator's own, or the one a super admin or admin picked; without a pick,
 * they read every aggregator's through `GET contracts/delivery-contract` (which has no
 * search).
 */
export const deliveryContractsQuery = (
  user: { id: string; seesAll: boolean },
  search: DeliveryContractsSearch,
) =>
  queryOptions({
    queryKey: contractKeys.list(user.seesAll ? (search.aggregator ?? '*') : user.id, search),
    queryFn: async (): Promise<Page<ContractListRow>> => {
      const query = {
        page: search.page ?? 1,
        limit: PAGE_SIZE,
        filters: search.status ? FILTER[search.status] : 'all',
      };
      const owner = user.seesAll ? search.aggregator : user.id;
      if (!owner) {
        const page = toPage(
          // The admins' whole list searches too (reference, grower's names).
          await api<Page<DeliveryContract>>('/contracts/delivery-contract', {
            query: { ...query, q: search.q },
          }),
        );
        return {
          count: page.count,
          data: page.data.map((c) => ({
            id: c.id,
            reference: c.reference,
            status: c.status,
            createdAt: c.createdAt,
            grower: c.grower ? `${c.grower.firstname} ${c.grower.lastname}` : null,
            quantity: c.quantity,
            amount: c.amount,
            deliveryDate: c.deliveryDate,
          })),
        };
      }
      const page = toPage(
        await api<Page<SmartContract>>(`/contracts/smarts/${encodeURIComponent(owner)}/LIVRAISON`, {
          query: { ...query, q: search.q },
        }),
      );
      return {
        count: page.count,
        data: page.data.map((c) => ({
          id: c.id,
          reference: c.reference,
          status: c.status,
          createdAt: c.createdAt,
          grower: `${c.rightSide.firstname} ${c.rightSide.lastname}`,
          quantity: c.meta.quantity,
          amount: c.meta.amount,
          deliveryDate: c.meta.deliveryDate,
        })),
      };
    },
    placeholderData: keepPreviousData,
  });

/**
 * How many contracts are ready to run ('Livraison disponible', DELIVERED): the aggregator's
 * own, or every aggregator's (or the one picked) for the super admin and an admin.
 */
export const deliveredCountQuery = (owner: string | undefined) =>
  queryOptions({
    queryKey: contractKeys.delivered(owner ?? '*'),
    queryFn: async (): Promise<number> => {
      const query = { page: 1, limit: 1, filters: 'delivered' };
      if (owner) {
        const path = `/contracts/smarts/${encodeURIComponent(owner)}/LIVRAISON`;
        return toPage(await api<Page<SmartContract>>(path, { query })).count;
      }
      return toPage(await api<Page<DeliveryContract>>('/contracts/delivery-contract', { query }))
        .count;
    },
  });

export const deliveryContractQuery = (id: string) =>
  queryOptions({
    queryKey: contractKeys.detail(id),
    queryFn: () =>
      api<DeliveryContractDetail>(`/contracts/delivery-contract/${encodeURIComponent(id)}`),
  });

/** `POST contracts/delivery-contract` (§3 create payload): quantity in tonnes, amount F CFA. */
export type CreateDeliveryContractBody = ApiBody<'/api/contracts/delivery-contract'>;
export type ContractAnswer = ApiResponse<'/api/contracts/delivery-contract', 'post'>;

export function createDeliveryContract(
  body: CreateDeliveryContractBody,
  key: IdempotencyKey,
): Promise<ContractAnswer> {
  return command<ContractAnswer>('/contracts/delivery-contract', key, { body });
}

/** The grower (signed in) or its cooperative confirms: PENDING → CONFIRMED. */
/**
 * Confirms a PENDING contract: the grower himself (no code: his session is his consent), or his
 * cooperative with the code the grower received by SMS.
 */
export function confirmDeliveryContract(id: string, code?: string): Promise<ContractAnswer> {
  const body: ApiBody<'/api/contracts/delivery-contract/{id}/confirm', 'patch'> = code
    ? { code }
    : {};
  return api<ContractAnswer>(`/contracts/delivery-contract/${encodeURIComponent(id)}/confirm`, {
    method: 'PATCH',
    body,
  });
}

export type AcceptanceCodeAnswer = ApiResponse<
  '/api/contracts/delivery-contract/{id}/acceptance-code',
  'post'
>;

/** Sends the grower a new acceptance code (the old one stops working). */
export function resendAcceptanceCode(id: string): Promise<AcceptanceCodeAnswer> {
  return api<AcceptanceCodeAnswer>(
    `/contracts/delivery-contract/${encodeURIComponent(id)}/acceptance-code`,
    { method: 'POST' },
  );
}

/** The aggregator records the weighed delivery: quantity in tonnes, the day it was weighed. */
export function recordDelivery(
  id: string,
  body: { quantity: number; deliveredOn: string },
): Promise<ContractAnswer> {
  return api<ContractAnswer>(`/contracts/delivery-contract/${encodeURIComponent(id)}/delivery`, {
    method: 'PATCH',
    body,
  });
}

/** The aggregator cancels: the contract is 'Expiré' and its hold released. */
export function cancelDeliveryContract(id: string): Promise<ContractAnswer> {
  return api<ContractAnswer>(`/contracts/delivery-contract/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  });
}

/** `POST contracts/run-contracts {ids}` → 202: the run goes on in the background. */
export type RunAnswer = ApiResponse<'/api/contracts/run-contracts', 'post'>;

export function runContracts(ids: string[], key: IdempotencyKey): Promise<RunAnswer> {
  return command<RunAnswer>('/contracts/run-contracts', key, { body: { ids } });
}

/** `POST contracts/run-delivered` → 202: every contract of the aggregator ready to run. */
export function runDeliveredContracts(key: IdempotencyKey): Promise<RunAnswer> {
  return command<RunAnswer>('/contracts/run-delivered', key, {});
}

/** `GET contracts/runs/{runId}`: where each contract of a run stands. */
export type RunProgress = ApiResponse<'/api/contracts/runs/{runId}'>;
/** One contract of a run: PENDING until its settlement is COMPLETED (or FAILED, with why). */
export type RunItem = RunProgress['items'][number];

export const runQuery = (runId: string) =>
  queryOptions({
    queryKey: contractKeys.run(runId),
    queryFn: () => api<RunProgress>(`/contracts/runs/${encodeURIComponent(runId)}`),
    // Pushes move it (contracts.run); while it runs, a slow look every 10 s as well, so a
    // push lost on the way (the API's listener reconnecting) cannot leave the banner stuck.
    refetchInterval: (query) => (query.state.data?.status === 'DONE' ? false : 10_000),
  });
