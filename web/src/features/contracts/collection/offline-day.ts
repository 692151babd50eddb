import { computeSettlement } from '@filiere/api/contracts/settlement-rule';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createStore, get, set } from 'idb-keyval';
import { useEffect } from 'react';
import { api } from '../../../shared/api/client.js';
import { appQueue, useOfflineQueue } from '../../../shared/offline/app-queue.js';
import type { OfflineState, QueuedPost } from '../../../shared/offline/queue.js';
import type { CollectionGrower, Weighing, WeighingAnswer } from './api.js';

/**
 * The collection centre offline (docs/contracts.md "Offline at the scale"): the day the scale
 * keeps while online (`GET contracts/collection/offline-day`), the grower found on the phone
 * by his code or phone (a phone is compared by its hash: the number is never kept), and the
 * weighing's figures computed by the server's own settlement rule (settlement-rule.ts).
 */
export interface OfflineDay {
  issuedAt: string;
  aggregatorUserId: string;
  available: number;
  growers: {
    id: string;
    reference: string;
    firstname: string;
    lastname: string;
    phoneChecks: string[];
    hasMobileMoney: boolean;
    contracts: {
      id: string;
      reference: string;
      quantityKg: number;
      amount: number;
      deliveryDate: string;
    }[];
    debts: {
      id: string;
      kind: string;
      creditorUserId: string;
      outstanding: number;
      openedAt: string;
    }[];
  }[];
}

/** Where a weighing is POSTed, online and from the queue alike. */
export const WEIGHINGS_URL = '/contracts/collection/weighings';

const dayStore = () => createStore('filiere-collection', 'day');

export const fetchOfflineDay = () => api<OfflineDay>('/contracts/collection/offline-day');

/** The queued weighing of a post, or null for another command. */
export const weighingOf = (post: QueuedPost): Weighing | null =>
  post.url === WEIGHINGS_URL ? (post.body as Weighing) : null;

/** Tonnes as the API writes them ('2.5'), from kilograms. */
const tonnesOf = (kg: number) => String(kg / 1000);

/** The grower's code as the server reads it (PRD-000123, or its digits), or null. */
function referenceOf(text: string): string | null {
  const compact = text.replace(/\s/g, '');
  if (!/^(prd-?)?\d{1,9}$/i.test(compact)) return null;
  return `PRD-${compact.replace(/\D/g, '').padStart(6, '0')}`;
}

/** The check of a phone's last eight digits for a grower (the server's phoneCheckOf). */
async function phoneCheck(growerId: string, last8: string): Promise<string> {
  const bytes = await globalThis.crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`${growerId}:${last8}`),
  );
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text);
}

/**
 * The kept growers matching a code or a phone, with their contracts still to weigh (those
 * queued or refused on this phone are left out), in the online search's shape.
 */
export async function findOffline(
  day: OfflineDay | null,
  text: string,
  taken: ReadonlySet<string>,
): Promise<CollectionGrower[]> {
  if (!day) return [];
  const reference = referenceOf(text.trim());
  const digits = text.replace(/\D/g, '');
  const last8 = digits.length >= 8 ? digits.slice(-8) : null;
  const found: OfflineDay['growers'] = [];
  for (const g of day.growers) {
    if (reference && g.reference === reference) found.push(g);
    else if (last8 && g.phoneChecks.includes(await phoneCheck(g.id, last8))) found.push(g);
  }
  return found.slice(0, 5).map((g) => ({
    id: g.id,
    reference: g.reference,
    firstname: g.firstname,
    lastname: g.lastname,
    phone: null,
    hasMobileMoney: g.hasMobileMoney,
    contracts: g.contracts
      .filter((c) => !taken.has(c.id))
      .map((c) => ({
        id: c.id,
        reference: c.reference,
        quantity: tonnesOf(c.quantityKg),
        amount: c.amount,
        deliveryDate: c.deliveryDate,
      })),
  }));
}

/**
 * The figures of `weighing` computed on the phone: the weighings queued before it are
 * settled first, in order (a debt they recover, the balance they use, is no longer there),
 * then this one — each by `computeSettlement`, the rule the server settles with. Null when
 * the contract is not in the kept day.
 */
export function settleOffline(
  day: OfflineDay,
  queued: readonly Weighing[],
  weighing: Weighing,
): WeighingAnswer | null {
  const outstanding = new Map(
    day.growers.flatMap((g) => g.debts.map((d) => [d.id, d.outstanding] as const)),
  );
  let available = day.available;
  const settle = (w: Weighing) => {
    const grower = day.growers.find((g) => g.contracts.some((c) => c.id === w.contractId));
    const contract = grower?.contracts.find((c) => c.id === w.contractId);
    if (!grower || !contract) return null;
    const computed = computeSettlement({
      contract: {
        contractId: contract.id,
        aggregatorUserId: day.aggregatorUserId,
        growerId: grower.id,
        amount: contract.amount,
        quantityKg: contract.quantityKg,
        deliveredKg: w.kilograms,
      },
      held: contract.amount,
      aggregatorAvailable: available,
      debts: grower.debts.map((d) => ({
        exists: true,
        debtId: d.id,
        kind: d.kind as 'AVANCE_SUR_INTRANT',
        creditorUserId: d.creditorUserId,
        debtorGrowerId: grower.id,
        principal: outstanding.get(d.id) ?? 0,
        recovered: 0,
        openedAt: d.openedAt,
        recoveries: {},
      })),
    });
    for (const r of computed.recoveries) {
      outstanding.set(r.debtId, (outstanding.get(r.debtId) ?? 0) - r.amount);
    }
    available -= computed.extraFromAvailable;
    return { contract, computed };
  };
  for (const w of queued) if (w.contractId !== weighing.contractId) settle(w);
  const settled = settle(weighing);
  if (!settled) return null;
  const { contract, computed } = settled;
  return {
    contractId: contract.id,
    reference: contract.reference,
    status: 'COMPLETED',
    deliveredKg: weighing.kilograms,
    grade: weighing.grade,
    weighedOn: weighing.weighedOn,
    deliveredAmount: computed.deliveredAmount,
    recoveries: computed.recoveries.map((r) => ({
      debtId: r.debtId,
      kind: r.kind,
      amount: r.amount,
      to: r.to,
    })),
    recoveredAmount: computed.recoveries.reduce((sum, r) => sum + r.amount, 0),
    growerNet: computed.growerNet,
    payoutId: null,
    payoutQueued: false,
    alreadySettled: false,
  };
}

export interface CollectionDay {
  day: OfflineDay | null;
  loadFailed: boolean;
  queue: OfflineState;
  /** The queued weighings, oldest first. */
  queued: Weighing[];
  /** Contracts queued or refused on this phone (not offered again). */
  taken: ReadonlySet<string>;
}

/**
 * The scale's day for `owner`: fetched and kept in IndexedDB while online, read from it
 * offline; a weighing the queue sent refreshes the collection's queries and the kept day.
 */
export function useCollectionDay(owner: string | undefined, online: boolean): CollectionDay {
  const queryClient = useQueryClient();
  const queue = useOfflineQueue(owner);
  const kept = useQuery({
    queryKey: ['contracts', 'collection', 'offline-day', owner ?? '', online] as const,
    enabled: Boolean(owner),
    retry: false,
    // Offline it reads what the phone kept: it must run without network.
    networkMode: 'always',
    queryFn: async (): Promise<{ day: OfflineDay | null; loadFailed: boolean }> => {
      const store = dayStore();
      const before = (await get<OfflineDay>(owner!, store).catch(() => undefined)) ?? null;
      if (!online) return { day: before, loadFailed: false };
      try {
        const day = await fetchOfflineDay();
        await set(owner!, day, store);
        return { day, loadFailed: false };
      } catch {
        return { day: before, loadFailed: before === null };
      }
    },
  });
  useEffect(
    () =>
      appQueue().onSent((post) => {
        if (weighingOf(post)) {
          void queryClient.invalidateQueries({ queryKey: ['contracts', 'collection'] });
        }
      }),
    [queryClient],
  );
  const queued = queue.pending.map(weighingOf).filter((w) => w !== null);
  const refused = queue.refused.map(weighingOf).filter((w) => w !== null);
  return {
    day: kept.data?.day ?? null,
    loadFailed: kept.data?.loadFailed ?? false,
    queue,
    queued,
    taken: new Set([...queued, ...refused].map((w) => w.contractId)),
  };
}
