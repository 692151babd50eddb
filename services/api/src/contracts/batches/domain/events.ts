import { defineEvent, type EventDefinition, type StreamType } from '@filiere/event-store';
import { z } from 'zod';

/**
 * Stream `contractparent-<parentId>`: one LIVRAISON_PARENT, made by 'create many' (a file or
 * selected growers) in the same append as its sub-contracts (`contract-<id>` streams with
 * `parentId`, each with its own hold) — so a parent never exists without all its subs.
 * The parent id is the preview's id: validating a preview twice finds the parent and
 * writes nothing.
 */
const id = z.string().min(1);
const money = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const ParentContractCreated = z.object({
  parentId: id,
  reference: id,
  aggregatorUserId: id,
  /** FILE: an uploaded .xlsx/.csv; GROWERS: growers selected in the app. */
  source: z.enum(['FILE', 'GROWERS']),
  fileName: z.string().max(255).nullable(),
  subCount: z.number().int().positive(),
  totalKg: money,
  totalAmount: money,
  createdBy: id,
  createdAt: z.iso.datetime(),
});
export type ParentContractCreatedData = z.infer<typeof ParentContractCreated>;

export const batchEvents: EventDefinition<string, any>[] = [
  defineEvent({ type: 'ParentContractCreated', version: 1, schema: ParentContractCreated }),
];

export interface ParentContractState {
  exists: boolean;
  parentId: string | null;
  reference: string;
  aggregatorUserId: string;
  subCount: number;
  totalAmount: number;
}

export const PARENT_CATEGORY = 'contractparent';
export const parentStreamId = (parentId: string): string => `${PARENT_CATEGORY}-${parentId}`;

export const parentStream: StreamType<ParentContractState> = {
  category: PARENT_CATEGORY,
  initialState: () => ({
    exists: false,
    parentId: null,
    reference: '',
    aggregatorUserId: '',
    subCount: 0,
    totalAmount: 0,
  }),
  evolve: (state, event) => {
    if (event.type !== 'ParentContractCreated') return state;
    const d = event.data as ParentContractCreatedData;
    return {
      exists: true,
      parentId: d.parentId,
      reference: d.reference,
      aggregatorUserId: d.aggregatorUserId,
      subCount: d.subCount,
      totalAmount: d.totalAmount,
    };
  },
};
