import { describe, expect, it } from 'vitest';
import { loginRedirectFor } from './unauthorized.js';

describe('401 redirect', () => {
  it('sends the user to login with the path to come back to', () => {
    expect(loginRedirectFor('/utilisateurs', '?page=2')).toBe(
      '/auth/login?redirect=%2Futilisateurs%3Fpage%3D2',
    );
  });
  it('stays on login, the root and the invitation page', () => {
    expect(loginRedirectFor('/auth/login')).toBeNull();
    expect(loginRedirectFor('/')).toBeNull();
    expect(loginRedirectFor('/auth/signup-invitation/')).toBeNull();
  });
});
