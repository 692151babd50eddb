/**
 * Typed errors with an HTTP meaning, shared by every bounded context. The API's
 * error handler turns them into `{ statusCode, error, message, ...data }`.
 */
export abstract class AppError extends Error {
  abstract readonly statusCode: number;
  constructor(
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the input is malformed; `data.fields` maps field paths to French messages. */
export class ValidationError extends AppError {
  readonly statusCode = 400;
}

/** 401: not signed in, or the token is not valid. */
export class UnauthorizedError extends AppError {
  readonly statusCode = 401;
}

/** 403: signed in, but not allowed. */
export class ForbiddenError extends AppError {
  readonly statusCode = 403;
}

/** 404: no such thing (or not visible to the caller). */
export class NotFoundError extends AppError {
  readonly statusCode = 404;
}

/** 406: the account exists but is not activated. */
export class NotAcceptableError extends AppError {
  readonly statusCode = 406;
}

/** 409: a conflict, such as a stream version already taken or a duplicate user. */
export class ConflictError extends AppError {
  readonly statusCode = 409;
}

/** 409: another writer appended to the stream first. */
export class ConcurrencyError extends ConflictError {}

/** 422: a business rule refuses the command (e.g. the available balance is short). */
export class BusinessRuleError extends AppError {
  readonly statusCode = 422;
}

/** 429: too many attempts. */
export class TooManyRequestsError extends AppError {
  readonly statusCode = 429;
}

/** 503: a dependency (database, Redis, payment provider) is not answering. */
export class UnavailableError extends AppError {
  readonly statusCode = 503;
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
