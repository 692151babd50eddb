import { describe, expect, it } from 'vitest';
import { HOME_PATH, safeRedirect } from './redirect.js';

describe('redirect after login', () => {
  it('goes back to a local path', () => {
    expect(safeRedirect('/utilisateurs?page=2')).toBe('/utilisateurs?page=2');
  });
  it('refuses other sites and auth pages, and defaults to the dashboard', () => {
    expect(safeRedirect('//evil.example')).toBe(HOME_PATH);
    expect(safeRedirect('https://evil.example')).toBe(HOME_PATH);
    expect(safeRedirect('/auth/login')).toBe(HOME_PATH);
    expect(safeRedirect(undefined)).toBe('/dashboard');
  });
});
