import { z } from 'zod';
import { defineEvent, EventCatalogue } from './catalogue.js';
import type { StreamType } from './pipeline/types.js';

/** Event types and stream types used by this package's tests and benchmark. */
export const Credited = defineEvent({
  type: 'test.Credited',
  version: 1,
  schema: z.object({ amount: z.number().int().positive() }),
});

export const Debited = defineEvent({
  type: 'test.Debited',
  version: 1,
  schema: z.object({ amount: z.number().int().positive() }),
});

/** Version 2 renamed `n` to `count`; version-1 payloads are upcast. */
export const Noted = defineEvent({
  type: 'test.Noted',
  version: 2,
  schema: z.object({ count: z.number().int() }),
  upcast: (data, fromVersion) => (fromVersion === 1 ? { count: (data as { n: number }).n } : data),
});

/** The catalogue of this package's tests (each test file's stores are built with it). */
export const testCatalogue = new EventCatalogue([Credited, Debited, Noted]);

export interface Account {
  balance: number;
}

export const accountType: StreamType<Account> = {
  category: 'account',
  initialState: () => ({ balance: 0 }),
  evolve: (state, event) => {
    if (event.type === Credited.type) return { balance: state.balance + event.data.amount };
    if (event.type === Debited.type) return { balance: state.balance - event.data.amount };
    return state;
  },
};
