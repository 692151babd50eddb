import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandPipeline, StreamState } from '@filiere/event-store';
import { ConcurrencyError } from '@filiere/platform';
import { openWallet, walletStreamId, type Decision, type WalletState } from '../domain/index.js';

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
 * Opens a user's wallet stream the first time it is used (idempotent: key
 * `open-wallet-<walletId>`, and an already open wallet is left as is). Wallets known open
 * are remembered by this process, so the hot path costs nothing.
 */
export class WalletOpener {
  private readonly known = new Set<string>();

  constructor(private readonly pipeline: CommandPipeline) {}

  async ensureOpen(walletId: string, ownerUserId: string): Promise<void> {
    if (this.known.has(walletId)) return;
    const streamId = walletStreamId(walletId);
    await runCommand(this.pipeline, {
      idempotencyKey: `open-wallet-${walletId}`,
      streams: [streamId],
      userId: ownerUserId,
      decide: (states) => {
        const wallet = states[streamId]!.state as WalletState;
        if (wallet.opened) return { writes: [], result: { walletId } };
        return openWallet(wallet, { walletId, ownerUserId });
      },
    });
    this.known.add(walletId);
  }
}
