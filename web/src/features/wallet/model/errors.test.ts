import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../shared/api/api-error.js';
import { refusalMessage } from './errors.js';

describe('refusalMessage: what a wallet form shows when a money command fails', () => {
  it('shows the server’s message for every refusal (4xx), 422 included', () => {
    expect(refusalMessage(new ApiError(422, 'Solde disponible insuffisant'))).toBe(
      'Solde disponible insuffisant',
    );
    expect(
      refusalMessage(new ApiError(422, 'Aucun compte bancaire n’est enregistré sur votre profil')),
    ).toBe('Aucun compte bancaire n’est enregistré sur votre profil');
    expect(refusalMessage(new ApiError(400, 'Montant invalide'))).toBe('Montant invalide');
    expect(refusalMessage(new ApiError(403, 'Ce portefeuille ne vous appartient pas'))).toBe(
      'Ce portefeuille ne vous appartient pas',
    );
  });

  it('leaves the generic text to the form otherwise', () => {
    expect(refusalMessage(new ApiError(500, 'Internal Server Error'))).toBeNull();
    expect(refusalMessage(new ApiError(503, 'Service indisponible'))).toBeNull();
    expect(refusalMessage(new ApiError(401, 'Not authenticated'))).toBeNull();
    expect(refusalMessage(new ApiError(422, ' '))).toBeNull();
    expect(refusalMessage(new NetworkError(true))).toBeNull();
    expect(refusalMessage(new Error('boom'))).toBeNull();
  });
});
