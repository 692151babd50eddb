import type { Kysely } from 'kysely';
import { EventStore } from '@filiere/event-store';
import { catchUp, type ProjectionTables } from '@filiere/projections';
import {
  move,
  walletAccount,
  walletEvent,
  walletStreamId,
  supplyStreamId,
  type WalletEvent,
} from '../../domain/index.js';
import { walletProjectors } from '../../read-model/index.js';
import { walletCatalogue, walletDecoder } from '../../read-model/test-support.js';

/** Test support: wallet events appended straight to the store, then projected. */
export class WalletEvents<DB extends ProjectionTables = ProjectionTables> {
  private readonly store: EventStore;
  private readonly pending: { streamId: string; events: WalletEvent[] }[][] = [];

  constructor(private readonly db: Kysely<DB>) {
    this.store = new EventStore(db, walletCatalogue);
  }

  open(walletId: string, ownerUserId: string): this {
    this.pending.push([
      {
        streamId: walletStreamId(walletId),
        events: [walletEvent('WalletOpened', { walletId, ownerUserId })],
      },
    ]);
    return this;
  }

  supply(
    walletId: string,
    ownerUserId: string,
    reference: string,
    amount: number,
    method: 'MOBILE_MONEY' | 'CARD' | 'BANK' = 'MOBILE_MONEY',
    credit = true,
  ): this {
    const bank = method === 'BANK' ? 'BOA' : null;
    this.pending.push([
      {
        streamId: supplyStreamId(reference),
        events: [
          walletEvent('SupplyInitiated', {
            reference,
            walletId,
            ownerUserId,
            method,
            amount,
            bankCode: bank,
            bankAccountNumber: bank ? 'BJ066' : null,
          }),
        ],
      },
    ]);
    if (!credit) return this;
    const source = method === 'BANK' ? 'bank:BOA' : `clearing:${method}`;
    this.pending.push([
      {
        streamId: supplyStreamId(reference),
        events: [
          walletEvent('SupplySucceeded', {
            reference,
            walletId,
            amount,
            providerTransactionId: `tx-${reference}`,
            validatedBy: null,
          }),
        ],
      },
      {
        streamId: walletStreamId(walletId),
        events: [
          walletEvent('SupplyCredited', {
            walletId,
            reference,
            method,
            amount,
            providerTransactionId: `tx-${reference}`,
            postings: move(source, walletAccount(walletId), amount),
          }),
        ],
      },
    ]);
    return this;
  }

  transfer(from: string, to: string, reference: string, amount: number, reason: string): this {
    const data = { reference, fromWalletId: from, toWalletId: to, amount, reason };
    this.pending.push([
      {
        streamId: walletStreamId(from),
        events: [
          walletEvent('TransferSent', {
            ...data,
            postings: move(walletAccount(from), walletAccount(to), amount),
          }),
        ],
      },
      { streamId: walletStreamId(to), events: [walletEvent('TransferReceived', data)] },
    ]);
    return this;
  }

  finance(
    from: { walletId: string; userId: string },
    to: { walletId: string; userId: string },
    reference: string,
    amount: number,
  ): this {
    const base = { reference, fromWalletId: from.walletId, toWalletId: to.walletId, amount };
    this.pending.push([
      {
        streamId: walletStreamId(from.walletId),
        events: [
          walletEvent('FinancingSent', {
            ...base,
            toUserId: to.userId,
            postings: move(walletAccount(from.walletId), walletAccount(to.walletId), amount),
          }),
        ],
      },
      {
        streamId: walletStreamId(to.walletId),
        events: [walletEvent('FinancingReceived', { ...base, fromUserId: from.userId })],
      },
    ]);
    return this;
  }

  /** Appends what was queued and runs the wallet projectors to the head. */
  async commit(): Promise<void> {
    for (const writes of this.pending.splice(0)) {
      await this.store.append(
        writes.map((w) => ({
          streamId: w.streamId,
          expectedVersion: 'any' as const,
          events: w.events,
        })),
      );
    }
    for (const projector of walletProjectors) {
      await catchUp(this.db, projector, { decode: walletDecoder });
    }
  }
}
