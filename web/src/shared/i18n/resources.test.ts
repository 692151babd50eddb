import { describe, expect, it } from 'vitest';
import { resources } from './resources.js';

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

describe('locale files', () => {
  it('have the same keys in French and English', () => {
    for (const ns of Object.keys(resources.fr) as (keyof typeof resources.fr)[]) {
      expect(keys(resources.en[ns]).sort(), ns).toEqual(keys(resources.fr[ns]).sort());
    }
  });
  it('keep the exact French texts of the spec', () => {
    expect(resources.fr.errors.badCredentials).toBe('Vos identifiants sont incorrectes');
    expect(resources.fr.errors.notActivated).toBe("Votre compte n'a pas encore été activé");
    expect(resources.fr.errors.userExists).toBe('Ce utilisateur existe déjà');
    expect(resources.fr.validation.rules.special).toBe('Un caractère spécial(#?*+/@!)');
    expect(resources.fr.common.loading).toBe('Chargement en cours ....');
  });
});
