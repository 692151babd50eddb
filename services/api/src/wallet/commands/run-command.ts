import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  canonicalJson,
  type CommandPipeline,
  type ReadGuard,
  type StreamState,
} from '@filiere/event-store';
import { BusinessRuleError, ConcurrencyError } from '@filiere/platform';
import {
  evolveWallet,
  openWallet,
  walletStreamId,
  type Decision,
  type StreamWrite,
  type WalletState,
} from '../domain/index.js';

/**
 * The fingerprint of a client's request: SHA-256 of the canonical JSON of the command's name
 * and its input (body and path parameters, as validated). Stored with the first result of
 * an idempotency key, so the key answers that result only to the same request.
 */
export function requestFingerprint(command: string, input: unknown): string {
  return createHash('sha256').update(canonicalJson({ command, input }), 'utf8').digest('hex');
}

/** The message of a key reused for another request (also used by the tests). */
export const IDEMPOTENCY_KEY_REUSED =
  'Cette Idempotency-Key a déjà servi pour une autre requête : utilisez une nouvelle clé pour une nouvelle opération';

/** How a command's first result is stored when its request has a fingerprint. */
interface Fingerprinted<R> {
  $fingerprint: string;
  $result: R;
}

function isFingerprinted(value: unknown): value is Fingerprinted<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { $fingerprint?: unknown }).$fingerprint === 'string' &&
    '$result' in value
  );
}

/**
 * Runs a decider through the pipeline. Another process appending to the same streams
 * first surfaces as a ConcurrencyError once the pipeline's own retries are spent; the
 * command is then retried here (same idempotency key, so it takes effect at most once)
 * with a short random pause, so a hot wallet shared by several API processes answers
 * 201 or 422, never 409.
 *
 * With `fingerprint` (see requestFingerprint), the result recorded under the idempotency
 * key carries it: a repeat of the same request gets the first result, while the key reused
 * for another request (another body or path) is refused with a 422 and writes nothing. A
 * key recorded before fingerprints existed answers its first result as before.
 */
export async function runCommand<R>(
  pipeline: CommandPipeline,
  command: {
    idempotencyKey?: string | undefined;
    fingerprint?: string;
    streams: string[];
    userId: string;
    /** Rows read outside the log that the decision rests on (see Command.guards). */
    guards?: readonly ReadGuard[];
    decide(states: Record<string, StreamState>): Decision<R>;
  },
): Promise<R> {
  const fingerprint = command.idempotencyKey ? command.fingerprint : undefined;
  const decide = fingerprint
    ? (states: Record<string, StreamState>): Decision<Fingerprinted<R>> => {
        const decided = command.decide(states);
        return {
          writes: decided.writes,
          result: { $fingerprint: fingerprint, $result: decided.result },
        };
      }
    : command.decide;
  for (let attempt = 0; ; attempt++) {
    try {
      const { result } = await pipeline.handle<unknown>({
        ...(command.idempotencyKey ? { idempotencyKey: command.idempotencyKey } : {}),
        streams: command.streams,
        metadata: { userId: command.userId },
        ...(command.guards ? { guards: command.guards } : {}),
        decide,
      });
      if (!isFingerprinted(result)) return result as R;
      if (fingerprint !== undefined && result.$fingerprint !== fingerprint) {
        throw new BusinessRuleError(IDEMPOTENCY_KEY_REUSED, { reason: 'IDEMPOTENCY_KEY_REUSED' });
      }
      return result.$result as R;
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
