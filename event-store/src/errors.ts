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
