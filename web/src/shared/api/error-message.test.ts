import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, readableMessage } from './api-error.js';
import { errorMessageKey } from './error-message.js';

describe('error catalogue', () => {
  it('maps login answers', () => {
    expect(errorMessageKey(new ApiError(401, 'x'), 'login')).toBe('errors:badCredentials');
    expect(errorMessageKey(new ApiError(406, 'x'), 'login')).toBe('errors:notActivated');
    expect(errorMessageKey(new ApiError(500, 'x'), 'login')).toBe('errors:unexpected');
  });
  it('shows the server message of a 429 in every context (it says how long to wait)', () => {
    const tooMany = new ApiError(429, 'Trop de tentatives. Réessayez dans 15 minutes.');
    for (const context of ['login', 'signupValidation', 'default', 'userCreation'] as const) {
      expect(errorMessageKey(tooMany, context)).toBe(
        'Trop de tentatives. Réessayez dans 15 minutes.',
      );
    }
  });
  it('maps the contract acceptance refusals to their catalogue keys (429 included)', () => {
    expect(
      errorMessageKey(
        new ApiError(422, 'Code incorrect : il reste 4 essais', 'ACCEPTANCE_CODE_WRONG'),
      ),
    ).toBe('errors:acceptanceCodeWrong');
    expect(errorMessageKey(new ApiError(429, 'Attendez', 'ACCEPTANCE_CODE_TOO_SOON'))).toBe(
      'errors:acceptanceCodeTooSoon',
    );
  });
  it('maps the invitation token refusal and the existing user', () => {
    expect(errorMessageKey(new ApiError(403, 'x'), 'signupValidation')).toBe('errors:invalidToken');
    expect(errorMessageKey(new ApiError(409, 'x', 'USER_ALREADY_EXIST'))).toBe('errors:userExists');
  });
  it('shows the server message for 422/409 and the generic text otherwise', () => {
    expect(errorMessageKey(new ApiError(422, 'Solde insuffisant'))).toBe('Solde insuffisant');
    expect(errorMessageKey(new ApiError(500, 'boom'))).toBe('errors:unexpected');
    expect(errorMessageKey(new Error('x'))).toBe('errors:unexpected');
    expect(errorMessageKey(new NetworkError(true))).toBe('errors:timeout');
  });
  it('never shows a field path: a validation answer reads as its field’s own message', () => {
    const text = 'Le montant ne peut pas dépasser 100 000 000 F CFA';
    expect(readableMessage(`amount: ${text}`, { amount: text })).toBe(text);
    expect(readableMessage('Solde disponible insuffisant')).toBe('Solde disponible insuffisant');
    expect(readableMessage('Solde insuffisant', { amount: 'Montant trop élevé' })).toBe(
      'Solde insuffisant',
    );
  });
});
