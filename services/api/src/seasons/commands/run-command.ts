import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { canonicalJson, type CommandPipeline, type StreamState } from '@filiere/event-store';
import { BusinessRuleError, ConcurrencyError } from '@filiere/platform';
import type { Decision } from '../domain/index.js';

export const IDEMPOTENCY_KEY_REUSED =
  'Cette Idempotency-Key a déjà servi pour une autre requête : utilisez une nouvelle clé pour une nouvelle opération';

/** Scopes a client's Idempotency-Key by user and command (keys never collide across users). */
export const scopedKey = (userId: string, command: string, key: string | undefined) =>
  key ? `${userId}:seasons.${command}:${key}` : undefined;

/** SHA-256 of the command's name and validated input, stored with the key's first result. */
export const fingerprintOf = (command: string, input: unknown): string =>
  createHash('sha256').update(canonicalJson({ command, input }), 'utf8').digest('hex');

interface Fingerprinted<R> {
  $fingerprint: string;
  $result: R;
}

/**
 * Runs a season decider through the app's command pipeline, as the wallet does: with an
 * idempotency key, a repeat of the same request answers the first result and appends
 * nothing, and the key reused for another request is a 422; another process appending to
 * the stream first is retried here (the pipeline's own retries spent).
 */
export async function runSeasonCommand<R>(
  pipeline: CommandPipeline,
  command: {
    idempotencyKey?: string | undefined;
    fingerprint?: string;
    streams: string[];
    userId: string;
    decide(states: Record<string, StreamState>): Decision<R>;
  },
): Promise<R> {
  const fingerprint = command.idempotencyKey ? command.fingerprint : undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      const { result } = await pipeline.handle<unknown>({
        ...(command.idempotencyKey ? { idempotencyKey: command.idempotencyKey } : {}),
        streams: command.streams,
        metadata: { userId: command.userId },
        decide: (states) => {
          const decided = command.decide(states);
          if (fingerprint === undefined) return decided;
          return {
            writes: decided.writes,
            result: { $fingerprint: fingerprint, $result: decided.result },
          };
        },
      });
      if (fingerprint === undefined) return result as R;
      const stored = result as Fingerprinted<R>;
      if (stored.$fingerprint !== fingerprint) {
        throw new BusinessRuleError(IDEMPOTENCY_KEY_REUSED, { reason: 'IDEMPOTENCY_KEY_REUSED' });
      }
      return stored.$result;
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= 30) throw error;
      await sleep(1 + Math.random() * Math.min(50, 2 * (attempt + 1)));
    }
  }
}
