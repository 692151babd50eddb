/** An HTTP error answered by the API: `{statusCode, error, message, fields?, reason?}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason?: string,
    readonly fields?: Record<string, string>,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The request did not complete (network down, time-out after 10 s). */
export class NetworkError extends Error {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? 'timeout' : 'network');
    this.name = 'NetworkError';
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/**
 * What a person reads of an answer: its message without a field path in front ('amount: Le
 * montant…' → 'Le montant…'), whichever field of `fields` the server put there.
 */
export function readableMessage(message: string, fields?: Record<string, string>): string {
  for (const path of Object.keys(fields ?? {})) {
    if (message.startsWith(`${path}: `)) return message.slice(path.length + 2);
  }
  return message;
}
