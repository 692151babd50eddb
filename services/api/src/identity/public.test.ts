import { describe, expect, it } from 'vitest';
import { identityUsers } from './public.js';

describe('identityUsers(): the users other contexts may read', () => {
  it('holds no secret: no password or PIN hash, no token version', () => {
    const { sql } = identityUsers().compile();
    expect(sql).toMatch(/^select "id", "firstname", "lastname", .* from "users"$/);
    for (const secret of ['password_hash', 'pin_hash', 'token_version']) {
      expect(sql).not.toContain(secret);
    }
  });

  it("names the live schema for a projector's replay", () => {
    expect(identityUsers('public').compile().sql).toMatch(/ from "public"\."users"$/);
  });
});
