import { describe, expect, it } from 'vitest';
import { EventCatalogue } from '@filiere/event-store';
import { contractEvents, contractStreamType, debtStreamType } from './catalogue.js';
import { contractEventUnion } from './domain/events.js';
import { settleDeliveryContract } from './domain/settlement.js';
import {
  confirmDeliveryContract,
  createDeliveryContract,
  recordDelivery,
} from './domain/delivery-contract.js';
import { openDebt } from './domain/debts.js';
import { AGG, GROWER, GROWER_USER, InMemoryContracts, NOW, SFD } from './domain/test-fixtures.js';
import { ROLE } from '../kernel/roles.js';

describe('contracts catalogue', () => {
  it('defines every event of the union once, and the streams fold what the deciders write', () => {
    const catalogue = new EventCatalogue(contractEvents);
    const types = contractEventUnion.options.map((o) => o.shape.type.value).sort();
    expect(contractEvents.map((e) => e.type).sort()).toEqual(types);

    const store = new InMemoryContracts();
    const aggregator = { userId: AGG, role: ROLE.INDUSTRIAL };
    store.apply(
      createDeliveryContract(
        store.contract('c1'),
        {
          contractId: 'c1',
          reference: 'LIV-1',
          growerId: GROWER,
          growerUserId: GROWER_USER,
          plotId: 'p1',
          productType: 'CAYENNE_LISSE',
          quantityKg: 2_000,
          amount: 400_000,
        },
        aggregator,
        { now: NOW, availableBalance: 400_000, plotOfGrower: true },
      ),
    );
    store.apply(
      openDebt(
        store.debt('d1'),
        {
          debtId: 'd1',
          kind: 'FINANCEMENT_SOCIAL',
          creditorUserId: SFD,
          debtorGrowerId: GROWER,
          principal: 50_000,
        },
        { now: NOW },
      ),
    );
    store.apply(
      confirmDeliveryContract(
        store.contract('c1'),
        { userId: GROWER_USER, role: ROLE.GROWER },
        { now: NOW, cooperativeUserId: null },
      ),
    );
    store.apply(
      recordDelivery(
        store.contract('c1'),
        { deliveredKg: 2_000, deliveredOn: '2026-11-25' },
        aggregator,
        { now: NOW },
      ),
    );
    store.apply(
      settleDeliveryContract(store.contract('c1'), store.debts(), aggregator, {
        now: NOW,
        aggregatorAvailable: 0,
        payout: null,
      }),
    );
    for (const [streamId, events] of store.streams) {
      const stream = streamId.startsWith('contract-') ? contractStreamType : debtStreamType;
      let state: unknown = stream.initialState();
      for (const event of events) {
        // each event passes its catalogue schema unchanged, and the stream type folds it
        expect(catalogue.get(event.type)!.schema.parse(event.data)).toEqual(event.data);
        state = (stream.evolve as (s: unknown, e: unknown) => unknown)(state, event);
      }
      if (streamId === 'contract-c1') {
        expect(state).toMatchObject({ status: 'COMPLETED', settlement: { growerNet: 350_000 } });
      } else {
        expect(state).toMatchObject({ principal: 50_000, recovered: 50_000 });
      }
    }
  });
});
