import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../database.js';
import { userDirectory, userLoader } from './index.js';
import { IdentityRepository } from './repository.js';
import { seedUser } from './test-support.js';

/**
 * The password hash stays in its column: the user the guard loads (every request's actor),
 * the per-process user directory and every user read carry only whether there is one; the
 * hash is read where a password is checked (sign-in, password change, current password:
 * users.test.ts and signup-flow.test.ts check those still work).
 */
describe('where the password hash reaches', () => {
  const testDb = useTestDatabase<Database>();
  let user: { id: string; email: string };
  let member: { id: string; email: string };

  beforeAll(async () => {
    user = await seedUser(testDb.db, 'ROLE_INDUSTRIAL');
    member = await seedUser(testDb.db, 'ROLE_GROWER');
    await testDb.db
      .updateTable('users')
      .set({ password_hash: null })
      .where('id', '=', member.id)
      .execute();
  });

  it('the loaded user, the directory and the repository say whether, never what', async () => {
    const loaded = await userLoader(testDb.db)(user.id);
    const remembered = await userDirectory(testDb.db).find(user.id, true);
    const read = await new IdentityRepository(testDb.db).findByEmail(user.email);
    for (const row of [loaded, remembered?.user, read]) {
      expect(row).toMatchObject({ id: user.id, has_password: true });
      expect(row).not.toHaveProperty('password_hash');
      expect(JSON.stringify(row)).not.toMatch(/argon2/);
    }
    expect(await userLoader(testDb.db)(member.id)).toMatchObject({ has_password: false });
    expect(await new IdentityRepository(testDb.db).passwordHashOf(user.id)).toMatch(/^\$argon2/);
    expect(await new IdentityRepository(testDb.db).passwordHashOf(member.id)).toBeNull();
  });
});
