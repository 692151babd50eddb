import type { Kysely } from 'kysely';
import { EventCatalogue, type EventStore } from '@filiere/event-store';
import {
  evolveSupply,
  evolveWallet,
  evolveWithdrawal,
  initialSupplyState,
  initialWalletState,
  initialWithdrawalState,
  initiateSupply,
  openWallet,
  validateBankSupply,
  supplyStreamId,
  walletStreamId,
  withdrawalStreamId,
  type AcceptedBank,
  type Actor,
  type Decision,
  type StreamWrite,
  type WalletEvent,
} from '../domain/index.js';
import {
  catalogueDecoder,
  catchUp,
  type ProjectionTables,
  type PushMessage,
} from '@filiere/projections';
import { walletEvents } from '../catalogue.js';
import { walletProjectors } from './index.js';

/** Test support: a catalogue of the wallet's events (the product's has every module's). */
export const walletCatalogue = new EventCatalogue(walletEvents);
export const walletDecoder = catalogueDecoder(walletCatalogue);

export const testBank: AcceptedBank = {
  code: 'BOA',
  name: 'Banque Atlantique Bénin',
  accountNumber: 'BJ0660100100000012345678901',
};

export const testSuperAdmin: Actor = {
  userId: 'u-super',
  role: 'ROLE_SUPER_ADMIN',
  walletId: null,
  clusterId: null,
};

/**
 * Streams folded in memory for the deciders (as the domain's in-memory ledger), keeping
 * every accepted decision's writes in order so they can be appended to the real store.
 */
export class RecordingLedger {
  readonly streams = new Map<string, WalletEvent[]>();
  readonly decisions: StreamWrite[][] = [];
  /**
   * Each stream's state folded so far, with how many of its events it has folded: a read folds
   * only the events appended since (a set-up of thousands of transfers reads the same two
   * wallets thousands of times). The states are immutable, so a cached one is never changed.
   */
  private readonly folded = new Map<string, { events: number; state: unknown }>();

  events(streamId: string): WalletEvent[] {
    return this.streams.get(streamId) ?? [];
  }

  private fold<S>(streamId: string, evolve: (state: S, event: never) => S, initial: () => S): S {
    const events = this.events(streamId);
    const cached = this.folded.get(streamId) as { events: number; state: S } | undefined;
    let state = cached?.state ?? initial();
    for (let i = cached?.events ?? 0; i < events.length; i++) {
      state = evolve(state, events[i] as never);
    }
    this.folded.set(streamId, { events: events.length, state });
    return state;
  }

  wallet(walletId: string) {
    return this.fold(walletStreamId(walletId), evolveWallet, initialWalletState);
  }

  supply(reference: string) {
    return this.fold(supplyStreamId(reference), evolveSupply, initialSupplyState);
  }

  withdrawal(withdrawalId: string) {
    return this.fold(withdrawalStreamId(withdrawalId), evolveWithdrawal, initialWithdrawalState);
  }

  apply<R>(decision: Decision<R>): R {
    for (const write of decision.writes) {
      this.streams.set(write.streamId, [...this.events(write.streamId), ...write.events]);
    }
    if (decision.writes.length) this.decisions.push(decision.writes);
    return decision.result;
  }

  /** Appends the decisions not yet appended, one store transaction per decision. */
  async flush(store: EventStore): Promise<void> {
    for (const writes of this.decisions.splice(0)) {
      await store.append(
        writes.map((w) => ({
          streamId: w.streamId,
          expectedVersion: 'any' as const,
          events: w.events,
        })),
      );
    }
  }

  open(walletId: string, userId: string, role = 'ROLE_INDUSTRIAL', clusterId = 'c1'): Actor {
    this.apply(openWallet(this.wallet(walletId), { walletId, ownerUserId: userId }));
    return { userId, role, walletId, clusterId };
  }

  /** A bank supply validated by the super admin. */
  fund(actor: Actor, amount: number, reference: string): void {
    const walletId = actor.walletId!;
    this.apply(
      initiateSupply(
        { wallet: this.wallet(walletId), supply: this.supply(reference) },
        { reference, walletId, method: 'BANK', amount },
        actor,
        { bank: testBank },
      ),
    );
    this.apply(
      validateBankSupply(
        { supply: this.supply(reference), wallet: this.wallet(walletId) },
        { reference, retypedReference: reference },
        testSuperAdmin,
      ),
    );
  }
}

/** Runs every wallet projector to the head; returns the pushes they published. */
export async function projectWallet<DB extends ProjectionTables>(
  db: Kysely<DB>,
): Promise<PushMessage[]> {
  const pushes: PushMessage[] = [];
  for (const projector of walletProjectors) {
    await catchUp(db, projector, {
      decode: walletDecoder,
      publish: async (messages) => void pushes.push(...messages),
    });
  }
  return pushes;
}
