import { ApiError, NetworkError } from './api-error.js';

/** Catalogue keys (namespace `errors`) for what a failed call should tell the user. */
export type ErrorContext = 'default' | 'login' | 'signupValidation' | 'userCreation';

/** The contract acceptance refusals (the API's `reason`) → their catalogue keys. */
const ACCEPTANCE_REASONS: Record<string, string> = {
  ACCEPTANCE_CODE_WRONG: 'errors:acceptanceCodeWrong',
  ACCEPTANCE_CODE_LOCKED: 'errors:acceptanceCodeLocked',
  ACCEPTANCE_CODE_NONE: 'errors:acceptanceCodeNone',
  ACCEPTANCE_NO_PHONE: 'errors:acceptanceNoPhone',
  ACCEPTANCE_CODE_TOO_SOON: 'errors:acceptanceCodeTooSoon',
  ACCEPTANCE_CODE_TOO_MANY: 'errors:acceptanceCodeTooMany',
  ACCEPTANCE_MISSING: 'errors:acceptanceMissing',
};

/**
 * The message of the spec's error catalogue for `error`: an i18n key
 * (`errors:...`) or the server's own message (422/409/400 carry one in French).
 */
export function errorMessageKey(error: unknown, context: ErrorContext = 'default'): string {
  if (error instanceof NetworkError) return error.timedOut ? 'errors:timeout' : 'errors:unexpected';
  if (!(error instanceof ApiError)) return 'errors:unexpected';
  if (error.reason && ACCEPTANCE_REASONS[error.reason]) return ACCEPTANCE_REASONS[error.reason]!;
  // Too many attempts: the server's French message says how long to wait, in every form.
  if (error.status === 429 && error.message) return error.message;
  if (context === 'login') {
    if (error.status === 401) return 'errors:badCredentials';
    if (error.status === 406) return 'errors:notActivated';
    return 'errors:unexpected';
  }
  if (context === 'signupValidation') {
    return error.status === 403 ? 'errors:invalidToken' : 'errors:unexpected';
  }
  if (error.status === 409 && error.reason === 'USER_ALREADY_EXIST') return 'errors:userExists';
  if (error.status === 401) return 'errors:notAuthenticated';
  if ([400, 403, 404, 409, 422, 429].includes(error.status) && error.message) return error.message;
  return 'errors:unexpected';
}
