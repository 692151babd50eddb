import type { StreamState } from '@filiere/event-store';
import {
  opensWallet,
  walletStream,
  walletStreamId,
  type Decision,
  type OpenWallet,
  type StreamWrite,
  type WalletState,
} from '../domain/index.js';

/**
 * For a decider given the pipeline's raw states (handleCommand's `open` hook with
 * `opensWallet` does the same for a typed command): the wallets a command credits that were
 * never opened are opened in the same append, only when the command writes something.
 */
export function openingWallets<R>(
  wallets: OpenWallet[],
  decide: (states: Record<string, StreamState>) => Decision<R>,
): (states: Record<string, StreamState>) => Decision<R> {
  return (states) => {
    const opened: StreamWrite[] = [];
    const seen: Record<string, StreamState> = { ...states };
    for (const wallet of wallets) {
      const streamId = walletStreamId(wallet.walletId);
      const current: StreamState<WalletState> = seen[streamId]!;
      const events = opensWallet(wallet)(current.state);
      if (events.length === 0) continue;
      seen[streamId] = { ...current, state: events.reduce(walletStream.evolve, current.state) };
      opened.push({ streamId, events });
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
