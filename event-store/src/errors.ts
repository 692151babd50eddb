import { ConflictError } from '@filiere/platform';
import type { ReadGuard } from './write.js';

export {
  AppError,
  BusinessRuleError,
  ConcurrencyError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  isAppError,
} from '@filiere/platform';

/**
 * A stored event the catalogue cannot read (unknown type, payload failing its
 * schema, version with no upcaster): the log and the code disagree, so reading
 * stops loudly with the position instead of guessing.
 */
export class EventDecodeError extends Error {
  constructor(
    readonly position: number,
    readonly type: string,
    reason: string,
  ) {
    super(`Event at position ${position} (type "${type}") cannot be read: ${reason}`);
    this.name = 'EventDecodeError';
  }
}

/** An event to append that the catalogue refuses (programming error, not bad input). */
export class EventEncodeError extends Error {
  constructor(
    readonly type: string,
    reason: string,
  ) {
    super(`Event of type "${type}" cannot be appended: ${reason}`);
    this.name = 'EventEncodeError';
  }
}

/**
 * A row a command was decided on changed since it was read (its read guard moved, see
 * schema/20261202_0104_read_guards.ts): nothing was appended. Not a ConcurrencyError: trying
 * the same decision again cannot succeed; the caller reads the rows again (`guards` names them,
 * with the versions that were read) and decides anew. A 409 if it ever reaches a client.
 */
export class StaleReadError extends ConflictError {
  readonly keys: string[];

  constructor(readonly guards: readonly ReadGuard[]) {
    const keys = [...new Set(guards.map((g) => g.key))];
    super('Les données ont été modifiées entre-temps ; réessayez.', {
      reason: 'STALE_READ',
      keys,
    });
    this.keys = keys;
    this.name = 'StaleReadError';
  }

  /** Whether this names one of `guards` (same key, same version). */
  names(guards: readonly ReadGuard[] = []): boolean {
    return guards.some((g) => this.guards.some((s) => s.key === g.key && s.version === g.version));
  }
}
