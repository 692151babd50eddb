import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandPipeline, StreamState } from '@filiere/event-store';
import { ConcurrencyError } from '@filiere/platform';
import {
  evolveWallet,
  openWallet,
  walletStreamId,
  type Decision,
  type StreamWrite,
  type WalletState,
} from '../domain/index.js';

/**
 * Runs a decider through the pipeline. Another process appending to the same streams
 * first surfaces as a ConcurrencyError once the pipeline's own retries are spent; the
 * command is then retried here (same idempotency key, so it takes effect at most once)
 * with a short random pause, so a hot wallet shared by several API processes answers
 * 201 or 422, never 409.
 */
export async function runCommand<R>(
  pipeline: CommandPipeline,
  command: {
    idempotencyKey?: string;
    streams: string[];
    userId: string;
    decide(states: Record<string, StreamState>): Decision<R>;
  },
): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { result } = await pipeline.handle<R>({
        ...(command.idempotencyKey ? { idempotencyKey: command.idempotencyKey } : {}),
        streams: command.streams,
        metadata: { userId: command.userId },
        decide: command.decide,
      });
      return result;
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= 30) throw error;
      await sleep(1 + Math.random() * Math.min(50, 2 * (attempt + 1)));
    }
  }
}

/**
 * Wraps a decider over wallet streams so that a wallet used for the first time is opened
 * (`WalletOpened`) in the same append as the command's own events, and only when the command
 * writes something: a refused command (the decider throws) leaves the ledger untouched, and
 * two commands racing to open one wallet are ordered by the stream's version like any other.
 */
export function openingWallets<R>(
  wallets: { walletId: string; ownerUserId: string }[],
  decide: (states: Record<string, StreamState>) => Decision<R>,
): (states: Record<string, StreamState>) => Decision<R> {
  return (states) => {
    const opened: StreamWrite[] = [];
    const seen: Record<string, StreamState> = { ...states };
    for (const wallet of wallets) {
      const streamId = walletStreamId(wallet.walletId);
      const current = seen[streamId]!;
      if ((current.state as WalletState).opened) continue;
      const open = openWallet(current.state as WalletState, wallet);
      let state = current.state as WalletState;
      for (const event of open.writes.flatMap((write) => write.events)) {
        state = evolveWallet(state, event);
      }
      seen[streamId] = { ...current, state };
      opened.push(...open.writes);
    }
    const decided = decide(seen);
    if (opened.length === 0 || decided.writes.length === 0) return decided;
    const own = (streamId: string) => decided.writes.find((w) => w.streamId === streamId);
    return {
      result: decided.result,
      writes: [
        ...opened.map((o) => ({
          streamId: o.streamId,
          events: [...o.events, ...(own(o.streamId)?.events ?? [])],
        })),
        ...decided.writes.filter((w) => !opened.some((o) => o.streamId === w.streamId)),
      ],
    };
  };
}
