import { api, command } from '../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../shared/api/idempotency.js';

/**
 * The collection centre's calls (docs/contracts.md "Paying at the scale"): find a grower by
 * code or phone, preview a weighing, confirm it — one POST with the Idempotency-Key made when
 * the weighing was entered, so a retry or a later replay pays once.
 */
export type QualityGrade = 'A' | 'B' | 'C';

export interface CollectionContract {
  id: string;
  reference: string;
  /** Tonnes, as text ('2.5'). */
  quantity: string;
  amount: number;
  deliveryDate: string;
}

export interface CollectionGrower {
  id: string;
  reference: string;
  firstname: string;
  lastname: string;
  phone: string | null;
  hasMobileMoney: boolean;
  contracts: CollectionContract[];
}

export interface Weighing {
  contractId: string;
  kilograms: number;
  grade: QualityGrade;
  weighedOn: string;
}

export interface WeighingAnswer {
  contractId: string;
  reference: string;
  status: 'COMPLETED';
  deliveredKg: number;
  grade: string;
  weighedOn: string;
  deliveredAmount: number;
  recoveries: { debtId: string; kind: string; amount: number; to: string }[];
  recoveredAmount: number;
  growerNet: number;
  payoutId: string | null;
  payoutQueued: boolean;
  alreadySettled: boolean;
}

export const collectionKeys = {
  growers: (q: string) => ['contracts', 'collection', 'growers', q] as const,
  preview: (w: Weighing) =>
    [
      'contracts',
      'collection',
      'preview',
      w.contractId,
      w.kilograms,
      w.grade,
      w.weighedOn,
    ] as const,
};

export async function findGrowers(q: string): Promise<CollectionGrower[]> {
  const answer = await api<{ data: CollectionGrower[] }>('/contracts/collection/growers', {
    query: { q },
  });
  return answer.data;
}

export function previewWeighing(weighing: Weighing): Promise<WeighingAnswer> {
  return api<WeighingAnswer>('/contracts/collection/preview', { method: 'POST', body: weighing });
}

export function confirmWeighing(weighing: Weighing, key: IdempotencyKey): Promise<WeighingAnswer> {
  return command<WeighingAnswer>('/contracts/collection/weighings', key, { body: weighing });
}
