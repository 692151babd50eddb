import { sql, type Kysely } from 'kysely';

/**
 * Every update or deletion of a `users` row bumps its read guard `user:<id>` in the same
 * transaction (event store's `read_guards`, 20261202_0104): whatever makes the change —
 * identity's journal, another context, an operator's SQL. The API keeps users in memory for
 * its hot paths (user-directory.ts) and names the guard of each user a command relied on; the
 * append refuses the command if the row changed since it was read, and the API reads it again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function users_bump_read_guard() returns trigger
    language plpgsql as $fn$
    begin
      perform filiere_bump_read_guard('user:' || old.id::text);
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create trigger users_read_guard after update or delete on users
    for each row execute function users_bump_read_guard()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger users_read_guard on users`.execute(db);
  await sql`drop function users_bump_read_guard()`.execute(db);
}
