import { sql, type Kysely } from 'kysely';

/**
 * Migration 0310's unique index on the members' phones is dropped: accounts created through
 * the user form (POST users/invitation/signup, PATCH users/me/phone) may share a phone with a
 * member, as they always could. A member's phone is unique by the check identity's members
 * face makes before each write (members.ts `ensurePhoneFree`: any non-deleted user, under a
 * per-number advisory lock that serialises two registrations of one number); the plain index
 * `users_phone_idx` serves that check.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists users_member_phone_unique`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create unique index users_member_phone_unique on users (phone)
    where deleted_at is null and phone is not null and role_id in (3, 4, 9, 10)`.execute(db);
}
